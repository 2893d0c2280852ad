"""Wire protocol: pydantic message models shared by the server and its clients, encoded with msgpack."""
