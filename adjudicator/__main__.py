from adjudicator.cli.main import main

main()
