// The club's pages (account, ladder, player): their words through the translation layer
// (docs/i18n.md), and the requests they share.
import { lang, t } from "./i18n.js";

/** Every word the club's pages show, in the page's language. */
export function words() {
  return {
    account: t("Account"),
    ladder: t("Ladder"),
    lobby: t("Lobby"),
    profile: t("My profile"),
    signUp: t("Create an account"),
    logIn: t("Log in"),
    logOut: t("Log out"),
    name: t("Name"),
    password: t("Password"),
    newPassword: t("New password"),
    currentPassword: t("Current password"),
    changePassword: t("Change password"),
    changed: t("Password changed; your other devices are logged out."),
    guest: t("You play as a guest. An account keeps your seats, games, ratings and preferences on every device."),
    loggedAs: t("Logged in as"),
    prefs: t("Preferences"),
    language: t("Language"),
    sounds: t("Sounds"),
    cards: t("Card style"),
    cardsClassic: t("Classic cards"),
    cardsLarge: t("Large cards"),
    cardsFour: t("Four-colour cards"),
    saved: t("Saved."),
    quick: t("Quick game"),
    ruleSet: t("Rule set"),
    rated: t("Rated"),
    wait: t("Wait for people"),
    seconds: t("s"),
    find: t("Find a game"),
    cancel: t("Leave the queue"),
    waiting: t("Waiting for players…"),
    matched: t("Table found:"),
    goSeat: t("Go to your seat"),
    myGames: t("My games"),
    none: t("Nothing yet."),
    unrated: t("unrated"),
    playing: t("playing"),
    open: t("waiting"),
    finished: t("finished"),
    abandoned: t("abandoned"),
    resume: t("resume"),
    allTime: t("All time"),
    last30: t("Last 30 days"),
    place: t("#"),
    player: t("Player"),
    rating: t("Rating"),
    games: t("Games"),
    provisional: t("provisional"),
    bot: t("bot"),
    policy: t("Ratings: Weng-Lin (Plackett-Luce), shown as μ − 3σ. A rating is provisional for its first 10 games. Not rated: tables created unrated, a guest at the table, one account at two seats, a seat left to a stand-in bot for more than 10 % of its actions, and past 3 rated games in 24 hours with the same people."),
    results: t("Results per rule set"),
    played: t("played"),
    wins: t("wins"),
    meanPlace: t("mean place"),
    history: t("Rating history"),
    noPlayer: t("No such player."),
    loginFirst: t("Log in to play a quick game."),
  };
}

/** The page's language. */
export function language() {
  return lang;
}

/**
 * The account's language follows it to every device: when the account chose one and the page
 * speaks another, switch (as the page's switch does) and reload once.
 */
export function followAccountLanguage(account) {
  const chosen = account && account.prefs && account.prefs.language;
  const key = "barbu.club.lang";
  try {
    if (!chosen || chosen === lang) { sessionStorage.removeItem(key); return false; }
    if (sessionStorage.getItem(key) === chosen) return false; // reloaded for it already: not on offer
    sessionStorage.setItem(key, chosen);
  } catch (e) {
    return false; // without storage a reload could repeat: keep the page's language
  }
  try { localStorage.setItem("barbu.lang", chosen); } catch (e) { /* the cookie is enough */ }
  document.cookie = `barbu_lang=${encodeURIComponent(chosen)}; path=/; max-age=31536000; samesite=lax`;
  location.reload();
  return true;
}

/** The logged-in account, or null. */
export async function whoAmI() {
  const res = await fetch("/api/club/me");
  return res.ok ? (await res.json()).account : null;
}

/** A JSON request; resolves to [ok, body]. */
export async function send(method, url, body) {
  const res = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = {};
  try { data = await res.json(); } catch { data = {}; }
  return [res.ok, data];
}

/** The message of an error answer. */
export function problem(data) {
  return (data && data.error && data.error.message) || "";
}
