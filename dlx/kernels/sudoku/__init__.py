"""The sudoku kernel (batch engine ``"sudoku"``): the 9x9 sudoku problem on bitboards,
many puzzles in one call."""
