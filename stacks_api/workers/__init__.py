"""Background work: bots' moves and expired block windows, never inside a request.

Every write of a game records when it next needs a worker, in the store's work
queue, in the same atomic step. Runners (``runner.py``) claim due games with a
lease and run ``GameService.advance`` on them: it loads a snapshot, lets the bot
decide outside any lock or transaction, and commits with a version check. With
Redis the runners are separate processes (``stacks-api worker``, ``worker.py``);
with the embedded store they are threads inside the web process.
"""
