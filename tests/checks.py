"""The checks of the Python test scripts (test_hosting.py, test_tune.py, test_ladder.py): each
prints "ok" or "FAIL" with what went wrong (its first 800 characters); `failed` counts the
checks that failed, and the script exits 1 when there is one."""

failed = 0


def check(name, cond, detail=""):
    global failed
    if cond:
        print("ok   " + name)
    else:
        failed += 1
        print("FAIL " + name + ("\n     " + str(detail)[:800] if detail else ""))
