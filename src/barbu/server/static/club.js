// The club's pages (/account, /ladder, /player) share one document, club.html: its head and
// header are written once, and this script runs the page the address names.
const PAGES = { "/account": "./account.js", "/ladder": "./ladder.js", "/player": "./player.js" };

import(PAGES[location.pathname] || PAGES["/ladder"]);
