"""What ``stacks-api`` does besides serving: the operators' moderation
(``admin``) and checking a finished game's record (``verify``)."""
