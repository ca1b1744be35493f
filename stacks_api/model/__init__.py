"""The values every layer shares, and the facts about them that hold everywhere:
a game as the server keeps it (``record``), the event types (``events``), a
refusal and its stable code (``refusals``, ``codes``), seat tokens (``tokens``),
the committed deal's derivation (``fairness``), who won once people left or
timed out (``outcomes``), and the typed values the service exchanges with the
stores and the archive (``seeks``, ``challenges``, ``tournaments``, ``deliveries``,
``grants``). Nothing here imports the rest of the package."""
