"""Rajas of the Ganges: The Dice Charmers, a roll & write for 2-5 players: its rules engine (engine/)."""
