#!/usr/bin/env python3
"""bench/soak.sh's view of the daemon: `status` over the control socket (one JSON line each way).

  soak_status.py get SOCKET EXPR...            print the values of python expressions over the status `s`
  soak_status.py step SOCKET CONSOLE LINKS TIMEOUT COMMAND
      note the daemon's heavy sweep count, write COMMAND to ibsim's console FIFO, then poll every 10 ms
      until a later heavy sweep ended with the subnet up and the daemon's fabric has LINKS cables; print
      the seconds from the write to that status and the daemon's own last_repair_ms. Exit 1 after
      TIMEOUT seconds. (One process for the whole step, so no process start-up is in the time.)
"""
import json
import socket
import sys
import time


def status(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(5)
        sock.connect(path)
        sock.sendall(b'{"cmd":"status"}\n')
        data = b''
        while not data.endswith(b'\n'):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    reply = json.loads(data)
    return reply.get('result', reply)


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == 'get':
        s = status(path)
        print(*[eval(e, {'s': s}) for e in sys.argv[3:]])  # noqa: S307 - the script's own expressions
        return 0
    console, links, timeout, command = sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), sys.argv[6]
    heavy = status(path)['sweeps']['heavy']
    with open(console, 'w') as fifo:
        fifo.write(command + '\n')
    t0 = time.monotonic()
    while True:
        try:
            s = status(path)
        except (OSError, ValueError):
            s = None
        elapsed = time.monotonic() - t0
        if s and s['sweeps']['heavy'] > heavy and s['last_sweep']['subnet_up'] and s['fabric']['links'] == links:
            print(f"{elapsed:.3f} {s.get('last_repair_ms', '-')}")
            return 0
        if elapsed > timeout:
            return 1
        time.sleep(0.01)


if __name__ == '__main__':
    sys.exit(main())
