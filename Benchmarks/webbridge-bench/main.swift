print("webbridge-bench: not yet")
