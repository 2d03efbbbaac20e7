"""The tight kernel (engine ``"tight"``): exact cover with every item's options as
bit rows, for problems such as sudoku."""
