"""Test helpers shared by test_loop.py and test_pipes.py: random solved pipe grids."""

from hypothesis import strategies as st


@st.composite
def solved_grids(draw, max_rows: int = 3, max_columns: int = 3, max_cells: int = 9):
    """A random grid of masks (1 up, 2 right, 4 down, 8 left) in which every pipe end
    meets a pipe end: each edge between neighbours carries a pipe or not, at random."""
    rows = draw(st.integers(1, max_rows))
    columns = draw(st.integers(1, max(1, min(max_columns, max_cells // rows))))
    grid = [[0] * columns for _ in range(rows)]
    for r in range(rows):
        for c in range(columns):
            if c + 1 < columns and draw(st.booleans()):
                grid[r][c] |= 2
                grid[r][c + 1] |= 8
            if r + 1 < rows and draw(st.booleans()):
                grid[r][c] |= 4
                grid[r + 1][c] |= 1
    return grid
