"""The multiplicity kernel (engine ``"mcc"``): primary items of bounds ``lo:hi`` on bit
sets of live options, branching as Knuth's SSMCC chooses."""
