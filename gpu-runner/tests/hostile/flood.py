line = "x" * 1023
while True:
    print(line)
