import os
print("LOCKSTEP-FOREVER-MARKER", flush=True)
if os.fork() == 0:
    while True:
        pass
while True:
    pass
