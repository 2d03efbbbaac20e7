from dlx.cli import main

raise SystemExit(main())
