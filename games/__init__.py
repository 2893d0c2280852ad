"""The games the platform offers, each a plug-in folder of its own (its rules engine, data, bots, views and
drawing), and the generator every game draws its dice, shuffles and deals from (rng.py)."""
