import os, time
children = 0
try:
    for _ in range(100000):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        children += 1
except OSError as e:
    print(f"fork refused after {children}: {type(e).__name__}", flush=True)
