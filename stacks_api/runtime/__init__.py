"""Running the server: settings (``config``), JSON logs, metrics, the gunicorn
worker (``serving``), the supervisor of ``serve``'s processes, running CPU work
off a gevent loop (``offload``), and a small cache of recent answers."""
