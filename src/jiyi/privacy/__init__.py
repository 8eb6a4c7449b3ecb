"""Privacy: finding personal and secret values, masking them, sealing them, forgetting by message."""
