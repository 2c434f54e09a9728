// Every word the club's pages (account, ladder, player) show, in French and English, in one
// place. The language is the account's preference, else the browser's.

export const TEXT = {
  en: {
    account: "Account", ladder: "Ladder", lobby: "Lobby", profile: "My profile",
    signUp: "Create an account", logIn: "Log in", logOut: "Log out", name: "Name", password: "Password",
    newPassword: "New password", currentPassword: "Current password", changePassword: "Change password",
    changed: "Password changed; your other devices are logged out.",
    guest: "You play as a guest. An account keeps your seats, games, ratings and preferences on every device.",
    loggedAs: "Logged in as", prefs: "Preferences", language: "Language", sounds: "Sounds", cards: "Card style",
    saved: "Saved.", quick: "Quick game", ruleSet: "Rule set", rated: "Rated", wait: "Wait for people",
    seconds: "s", find: "Find a game", cancel: "Leave the queue", waiting: "Waiting for players…",
    matched: "Table found:", goSeat: "Go to your seat", myGames: "My games", none: "Nothing yet.",
    unrated: "unrated", playing: "playing", open: "waiting", finished: "finished", resume: "resume",
    allTime: "All time", last30: "Last 30 days", place: "#", player: "Player", rating: "Rating",
    games: "Games", provisional: "provisional", bot: "bot",
    policy: "Ratings: Weng-Lin (Plackett-Luce), shown as μ − 3σ. A rating is provisional for its first 10 games. " +
      "Not rated: tables created unrated, a guest at the table, one account at two seats, a seat left to a stand-in bot for more than 10 % of its actions, " +
      "and past 3 rated games in 24 hours with the same people.",
    results: "Results per rule set", played: "played", wins: "wins", meanPlace: "mean place", history: "Rating history",
    noPlayer: "No such player.", loginFirst: "Log in to play a quick game.",
  },
  fr: {
    account: "Compte", ladder: "Classement", lobby: "Salon", profile: "Mon profil",
    signUp: "Créer un compte", logIn: "Se connecter", logOut: "Se déconnecter", name: "Nom", password: "Mot de passe",
    newPassword: "Nouveau mot de passe", currentPassword: "Mot de passe actuel", changePassword: "Changer le mot de passe",
    changed: "Mot de passe changé ; vos autres appareils sont déconnectés.",
    guest: "Vous jouez en invité. Un compte garde vos places, parties, classements et préférences sur tous vos appareils.",
    loggedAs: "Connecté en tant que", prefs: "Préférences", language: "Langue", sounds: "Sons", cards: "Style des cartes",
    saved: "Enregistré.", quick: "Partie rapide", ruleSet: "Règle", rated: "Classée", wait: "Attendre des joueurs",
    seconds: "s", find: "Trouver une partie", cancel: "Quitter la file", waiting: "En attente de joueurs…",
    matched: "Table trouvée :", goSeat: "Aller à votre place", myGames: "Mes parties", none: "Rien pour l’instant.",
    unrated: "non classée", playing: "en cours", open: "en attente", finished: "terminée", resume: "reprendre",
    allTime: "Depuis toujours", last30: "30 derniers jours", place: "n°", player: "Joueur", rating: "Cote",
    games: "Parties", provisional: "provisoire", bot: "robot",
    policy: "Cotes : Weng-Lin (Plackett-Luce), affichées comme μ − 3σ. Une cote est provisoire pendant ses 10 premières parties. " +
      "Non classées : les tables créées non classées, un invité à la table, un compte à deux places, une place laissée à un robot remplaçant plus de 10 % de ses actions, " +
      "et au-delà de 3 parties classées en 24 heures avec les mêmes personnes.",
    results: "Résultats par règle", played: "jouées", wins: "victoires", meanPlace: "place moyenne", history: "Historique de la cote",
    noPlayer: "Ce joueur n’existe pas.", loginFirst: "Connectez-vous pour jouer une partie rapide.",
  },
};

/** The language to show: the account's, else the browser's (French or English). */
export function language(account) {
  const chosen = account && account.prefs && account.prefs.language;
  if (chosen === "fr" || chosen === "en") return chosen;
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

/** The words of `lang`. */
export function words(lang) {
  return TEXT[lang] || TEXT.en;
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
