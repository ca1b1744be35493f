"""The kit every variant's rules are built from: the ``Game`` base class and its order
of refusals, card games, the seeded RNG, prebuilt actions and position readers.

Nothing here names a variant; the variants build on it, and the engine façade
(``stacks_api.engine``) sits above them both.
"""
