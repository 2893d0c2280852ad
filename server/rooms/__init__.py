"""rooms"""
