"""The tools around the product (`rajas.bench`): the load benchmark of `rajas bench`, its bare baseline and
lean load generator, the engine benchmark and the bot-game simulator. Nothing in the server or the engine
imports them; `rajas bench` and `rajas simulate` import them when asked."""
