"""stacks_api: a game server for Sequence and Sequence Stacks."""
