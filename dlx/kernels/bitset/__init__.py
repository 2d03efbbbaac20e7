"""The bitset kernel (engine ``"bitset"``): items as bits, for tilings."""
