"""Tests of the card game's rules engine (games/card_game), named after the rules they check."""
