// For a page whose own script does not set up its language yet: translate what the HTML marks
// (data-i18n) and put the language switch in its header (docs/i18n.md).
import { setUpPage } from "./i18n.js";

setUpPage();
