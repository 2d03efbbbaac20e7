"""The branch-and-bound kernel (``dlx.best``): the k cheapest solutions of a problem whose
options have costs, on DLX2's flat links with DLX5's taxes."""
