"""The share link as chat tools see it: Open Graph tags rendered by the server, a thumbnail."""
