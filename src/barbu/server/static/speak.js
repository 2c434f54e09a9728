// For a page whose own script does not set up its language yet: translate what the HTML marks
// (data-i18n), put the language switch in its header and a link to the rules (docs/i18n.md).
import { el } from "./dom.js";
import { setUpPage, t } from "./i18n.js";

setUpPage();
const header = document.querySelector("header");
if (header && !header.querySelector("a[href^='/rules']")) {
  header.querySelector(".lang-switch").before(el("a", { href: "/rules", class: "rules-link", target: "_blank" }, t("Rules")), " ");
}
