"""Static files of the browser client (served by the server; no build step)."""
