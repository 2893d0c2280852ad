"""The authoritative game server: transport, rooms, storage and broadcast around the rules engine."""
