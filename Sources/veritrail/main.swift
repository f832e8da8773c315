import VeritrailCLI

Veritrail.runCommandLine()
