from puzzles.cli import main

raise SystemExit(main())
