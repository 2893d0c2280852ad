"""Tests of the games in games/, one folder each."""
