"""Values that cross the layers: what the service hands the stores and the
stores give back, typed, each with its one JSON form. Nothing here imports the
rest of the package."""
