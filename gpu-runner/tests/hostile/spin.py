"""Burns 1.5 s of CPU time on one core, then exits: the job's CPU accounting must see it."""

import time

start = time.process_time()
while time.process_time() - start < 1.5:
    pass
print("spun", round(time.process_time() - start, 2))
