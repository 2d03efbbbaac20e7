"""The dancing-links kernel (engine ``"dlx"``): Knuth's Algorithm X, with colours,
multiplicities and loop items."""
