// The card list the board was drawn with, kept for the deal check (which the table calls with the log alone).

export const known = { cards: null };
