// Labels of the browser client in English, Dutch and German (rulebook terms).
// t(key, lang, vars) looks a label up; "{n}" in a label is replaced by vars.n.

export const LANGS = ["en", "nl", "de"];
export const LANG_NAMES = { en: "English", nl: "Nederlands", de: "Deutsch" };

const STRINGS = {
  en: {
    fame: "Fame", money: "Money", karma: "Karma", elephant: "Elephant", province: "Province",
    river: "River", palace: "Palace", market: "Market", residence: "Residence", depot: "Depot",
    upgrade: "Upgrade", upgrades: "Upgrades", middle: "Middle of the table", dice: "Dice",
    tea: "Tea", silk: "Silk", spices: "Spices",
    great_mogul: "Great Mogul", maharani: "Maharani", trader: "Trader", raja_man_singh: "Raja Man Singh",
    master_builder: "Master Builder", portuguese: "Portuguese",
    great_mogul_short: "GM", maharani_short: "Mh", trader_short: "Tr", raja_man_singh_short: "RS",
    master_builder_short: "MB", portuguese_short: "Pt",
    temple: "Temple", fort: "Fort", tower: "Tower", well: "Well",
    market_same: "Market: 1-3 goods of one kind", market_different: "Market: 1-3 different goods",
    lotus: "Lotus", flag: "Flag", fish: "Fish",
    bend: "Bend", straight: "Straight", half_roads: "2 half-roads",
    // bonuses and effects
    b_fame: "{n} fame", b_money: "{n} money", b_karma: "Karma", b_palace: "Palace: {c}",
    b_palace_any: "Palace action of your choice", b_upgrade: "Upgrade a building",
    b_goods: "Goods", b_goods_die: "Goods of a purple die", b_goods_choice: "{n} different goods of your choice",
    b_sell_any: "Sell up to {n} goods", b_sell_same: "Sell up to {n} goods of one kind",
    b_sell_different: "Sell up to {n} different goods", b_sell_same_or_different: "Sell up to {n} goods, same or different",
    b_half_road: "Half-road", b_road: "Road: straight, fork or intersection",
    b_river_forward: "River: next space", b_river_back: "River: back to the nearest free space",
    b_river_back_choice: "River: back to any free space", b_half_roads: "2 half-roads",
    b_river_symbol: "River: {s}", b_bonus: "Use a bonus",
    b_road_shapes: "Road", b_trader: "Trader: sell up to 2 goods or take 1 good",
    b_portuguese: "Portuguese: 1-2 spaces back on the river, or 1 good",
    b_maharani: "Maharani: 1-2 spaces ahead on the river", b_great_mogul: "Great Mogul: another palace action",
    // interface
    you: "you", seat: "Player {n}", round: "Round {n}", turn_of: "{p} to play",
    choose_space: "Choose a highlighted space on your sheet",
    choose_one: "Choose one:", which_bonus: "Use which bonus?", bonuses_pending: "Bonuses to use",
    now: "Now", rotate: "Rotate", confirm: "Confirm", cancel: "Cancel", shape_n: "shape {i} of {n}",
    sell_nothing: "Sell nothing", sell: "Sell", take_die: "Take this die", karma_reroll: "Karma: reroll",
    karma_pick: "Choose the die from the middle to reroll with the elephant's die",
    keep: "Keep", reroll_again: "Reroll again (1 karma)", pass: "Pass", rerolled: "Rerolled with karma",
    use: "Use", gained: "gained", used: "used", crossed: "crossed by {n}", not_crossed: "{n} spaces apart",
    decided: "Decision", language: "Language", legal_options: "Legal options", game_over: "Game over",
    fixture: "Moment", other_players: "Other players", karma_left: "{n} karma",
    column_bonus: "Column bonus", values: "Values", prices: "Prices", tent: "Tent",
  },
  nl: {
    fame: "Roem", money: "Geld", karma: "Karma", elephant: "Olifant", province: "Provincie",
    river: "Rivier", palace: "Paleis", market: "Markt", residence: "Residentie", depot: "Depot",
    upgrade: "Opwaarderen", upgrades: "Opwaarderingen", middle: "Midden van de tafel", dice: "Dobbelstenen",
    tea: "Thee", silk: "Zijde", spices: "Specerijen",
    great_mogul: "Grootmogol", maharani: "Maharani", trader: "Handelaar", raja_man_singh: "Raja Man Singh",
    master_builder: "Bouwmeester", portuguese: "Portugees",
    great_mogul_short: "GM", maharani_short: "Mh", trader_short: "Hd", raja_man_singh_short: "RS",
    master_builder_short: "BM", portuguese_short: "Pt",
    temple: "Tempel", fort: "Fort", tower: "Toren", well: "Put",
    market_same: "Markt: 1-3 goederen van één soort", market_different: "Markt: 1-3 verschillende goederen",
    lotus: "Lotus", flag: "Vlag", fish: "Vis",
    bend: "Bocht", straight: "Recht stuk", half_roads: "2 halve wegen",
    b_fame: "{n} roem", b_money: "{n} geld", b_karma: "Karma", b_palace: "Paleis: {c}",
    b_palace_any: "Paleisactie naar keuze", b_upgrade: "Een gebouw opwaarderen",
    b_goods: "Goederen", b_goods_die: "Goederen van een paarse dobbelsteen",
    b_goods_choice: "{n} verschillende goederen naar keuze",
    b_sell_any: "Tot {n} goederen verkopen", b_sell_same: "Tot {n} goederen van één soort verkopen",
    b_sell_different: "Tot {n} verschillende goederen verkopen",
    b_sell_same_or_different: "Tot {n} goederen verkopen, gelijk of verschillend",
    b_half_road: "Halve weg", b_road: "Weg: recht stuk, splitsing of kruising",
    b_river_forward: "Rivier: volgend veld", b_river_back: "Rivier: terug naar het dichtstbijzijnde vrije veld",
    b_river_back_choice: "Rivier: terug naar een vrij veld naar keuze", b_half_roads: "2 halve wegen",
    b_river_symbol: "Rivier: {s}", b_bonus: "Een bonus gebruiken",
    b_road_shapes: "Weg", b_trader: "Handelaar: tot 2 goederen verkopen of 1 goed nemen",
    b_portuguese: "Portugees: 1-2 velden terug op de rivier, of 1 goed",
    b_maharani: "Maharani: 1-2 velden vooruit op de rivier", b_great_mogul: "Grootmogol: een andere paleisactie",
    you: "jij", seat: "Speler {n}", round: "Ronde {n}", turn_of: "{p} is aan de beurt",
    choose_space: "Kies een gemarkeerd veld op je blad",
    choose_one: "Kies er één:", which_bonus: "Welke bonus gebruiken?", bonuses_pending: "Te gebruiken bonussen",
    now: "Nu", rotate: "Draaien", confirm: "Bevestigen", cancel: "Annuleren", shape_n: "vorm {i} van {n}",
    sell_nothing: "Niets verkopen", sell: "Verkopen", take_die: "Neem deze dobbelsteen", karma_reroll: "Karma: opnieuw gooien",
    karma_pick: "Kies de dobbelsteen uit het midden om samen met die van de olifant opnieuw te gooien",
    keep: "Houden", reroll_again: "Nog eens gooien (1 karma)", pass: "Passen", rerolled: "Opnieuw gegooid met karma",
    use: "Gebruiken", gained: "verkregen", used: "gebruikt", crossed: "gekruist met {n}", not_crossed: "{n} velden uit elkaar",
    decided: "Beslissing", language: "Taal", legal_options: "Toegestane keuzes", game_over: "Spel voorbij",
    fixture: "Moment", other_players: "Andere spelers", karma_left: "{n} karma",
    column_bonus: "Kolombonus", values: "Waarden", prices: "Prijzen", tent: "Tent",
  },
  de: {
    fame: "Ruhm", money: "Geld", karma: "Karma", elephant: "Elefant", province: "Provinz",
    river: "Fluss", palace: "Palast", market: "Markt", residence: "Residenz", depot: "Depot",
    upgrade: "Ausbau", upgrades: "Ausbauten", middle: "Tischmitte", dice: "Würfel",
    tea: "Tee", silk: "Seide", spices: "Gewürze",
    great_mogul: "Großmogul", maharani: "Maharani", trader: "Händler", raja_man_singh: "Raja Man Singh",
    master_builder: "Baumeister", portuguese: "Portugiese",
    great_mogul_short: "GM", maharani_short: "Mh", trader_short: "Hä", raja_man_singh_short: "RS",
    master_builder_short: "BM", portuguese_short: "Pt",
    temple: "Tempel", fort: "Festung", tower: "Turm", well: "Brunnen",
    market_same: "Markt: 1-3 gleiche Waren", market_different: "Markt: 1-3 verschiedene Waren",
    lotus: "Lotus", flag: "Fahne", fish: "Fisch",
    bend: "Kurve", straight: "Gerade", half_roads: "2 halbe Straßen",
    b_fame: "{n} Ruhm", b_money: "{n} Geld", b_karma: "Karma", b_palace: "Palast: {c}",
    b_palace_any: "Palastaktion nach Wahl", b_upgrade: "Ein Gebäude ausbauen",
    b_goods: "Waren", b_goods_die: "Waren eines lila Würfels", b_goods_choice: "{n} verschiedene Waren nach Wahl",
    b_sell_any: "Bis zu {n} Waren verkaufen", b_sell_same: "Bis zu {n} gleiche Waren verkaufen",
    b_sell_different: "Bis zu {n} verschiedene Waren verkaufen",
    b_sell_same_or_different: "Bis zu {n} Waren verkaufen, gleich oder verschieden",
    b_half_road: "Halbe Straße", b_road: "Straße: Gerade, Abzweigung oder Kreuzung",
    b_river_forward: "Fluss: nächstes Feld", b_river_back: "Fluss: zurück zum nächsten freien Feld",
    b_river_back_choice: "Fluss: zurück zu einem freien Feld nach Wahl", b_half_roads: "2 halbe Straßen",
    b_river_symbol: "Fluss: {s}", b_bonus: "Einen Bonus nutzen",
    b_road_shapes: "Straße", b_trader: "Händler: bis zu 2 Waren verkaufen oder 1 Ware nehmen",
    b_portuguese: "Portugiese: 1-2 Felder zurück auf dem Fluss, oder 1 Ware",
    b_maharani: "Maharani: 1-2 Felder vorwärts auf dem Fluss", b_great_mogul: "Großmogul: eine andere Palastaktion",
    you: "du", seat: "Spieler {n}", round: "Runde {n}", turn_of: "{p} ist am Zug",
    choose_space: "Wähle ein markiertes Feld auf deinem Blatt",
    choose_one: "Wähle eins:", which_bonus: "Welchen Bonus nutzen?", bonuses_pending: "Noch zu nutzende Boni",
    now: "Jetzt", rotate: "Drehen", confirm: "Bestätigen", cancel: "Abbrechen", shape_n: "Form {i} von {n}",
    sell_nothing: "Nichts verkaufen", sell: "Verkaufen", take_die: "Diesen Würfel nehmen", karma_reroll: "Karma: neu würfeln",
    karma_pick: "Wähle den Würfel aus der Tischmitte, der mit dem Würfel des Elefanten neu gewürfelt wird",
    keep: "Behalten", reroll_again: "Nochmal würfeln (1 Karma)", pass: "Passen", rerolled: "Mit Karma neu gewürfelt",
    use: "Nutzen", gained: "erhalten", used: "genutzt", crossed: "um {n} gekreuzt", not_crossed: "{n} Felder auseinander",
    decided: "Entscheidung", language: "Sprache", legal_options: "Erlaubte Züge", game_over: "Spielende",
    fixture: "Moment", other_players: "Andere Spieler", karma_left: "{n} Karma",
    column_bonus: "Spaltenbonus", values: "Werte", prices: "Preise", tent: "Zelt",
  },
};

let current = "en";

export function setLang(lang) {
  if (STRINGS[lang]) current = lang;
  return current;
}

export function getLang() {
  return current;
}

export function t(key, lang, vars) {
  const table = STRINGS[lang || current] || STRINGS.en;
  let s = table[key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) s = String(key).replace(/_/g, " ");
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] !== undefined ? String(vars[k]) : m));
  return s;
}

// Every key in every language (used by the tests: no language may miss a label).
export function keys(lang) {
  return Object.keys(STRINGS[lang] || {});
}
