"""Rajas of the Ganges: The Card Game, for 2-4 players: its rules engine (engine/), its reconstructed card list
(cards.json) and the bot simulator (simulate.py)."""
