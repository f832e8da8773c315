import VeritrailCLI

Veritrail.main()
