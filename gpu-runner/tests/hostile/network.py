import socket
for host, port in (("1.1.1.1", 80), ("8.8.8.8", 53)):
    s = socket.socket()
    s.settimeout(3)
    try:
        s.connect((host, port))
        print(f"REACHED {host}")
    except OSError as e:
        print(f"blocked {host}: {e}")
try:
    socket.getaddrinfo("pypi.org", 443)
    print("REACHED dns")
except OSError as e:
    print(f"blocked dns: {e}")
