#!/usr/bin/env python3
"""Checks the Dockerfile and the Kubernetes example without a container engine.

1. Rebuilds the Dockerfile's build stage from exactly the files its COPY lines name (after
   .dockerignore), in an empty directory, and runs the stage's RUN lines there as `sh -c` would.
2. Checks the runtime stage's needs: every file it copies (from the build stage or the context)
   exists, USER is a numeric non-root UID that the stage creates and that Debian's base does not
   already use, the HEALTHCHECK's program is installed by the stage, and the binary links only
   libraries the runtime image has.
3. Lays the runtime stage's files out in a directory, starts the ENTRYPOINT as that UID with the
   image's environment (listening on a free loopback port instead), runs the HEALTHCHECK command
   as written, fetches the shipped sample through it, and stops it with SIGTERM.
4. Cross-checks deploy/*.yaml against the image: runAsNonRoot with runAsUser/runAsGroup equal to
   the Dockerfile's USER, enableServiceLinks: false, and an image tag equal to `--version`.

Usage: python3 .ci/check_deploy.py [--keep]   (from the repository root; --keep leaves the temp dir)
"""

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
problems = []


def fail(message):
    problems.append(message)
    print(f"FAIL {message}", flush=True)


def ok(message):
    print(f"ok   {message}", flush=True)


# MARK: Dockerfile parsing

def instructions(path):
    """(keyword, arguments, line number) per instruction, with continuations joined and comments
    dropped; a `# hadolint ignore=` or other comment line inside a continuation is skipped too."""
    result, pending, start = [], "", 0
    with open(path) as file:
        for number, raw in enumerate(file, 1):
            line = raw.rstrip("\n")
            if line.lstrip().startswith("#"):
                continue
            if not pending and not line.strip():
                continue
            if not pending:
                start = number
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            pending += line
            keyword, _, arguments = pending.strip().partition(" ")
            result.append((keyword.upper(), arguments.strip(), start))
            pending = ""
    return result


def stages(path):
    """The stages in order: {name, base, steps: [(keyword, arguments, line)]}."""
    found = []
    for keyword, arguments, line in instructions(path):
        if keyword == "FROM":
            words = arguments.split()
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else str(len(found))
            found.append({"name": name, "base": words[0], "steps": []})
        elif found:
            found[-1]["steps"].append((keyword, arguments, line))
    return found


def copy_arguments(arguments):
    """(flags, sources, destination) of a COPY, in shell or JSON form."""
    words = shlex.split(arguments)
    flags = {}
    while words and words[0].startswith("--"):
        key, _, value = words.pop(0)[2:].partition("=")
        flags[key] = value
    rest = " ".join(words)
    if rest.startswith("["):
        words = json.loads(rest)
    return flags, words[:-1], words[-1]


def exec_form(arguments):
    """A CMD/ENTRYPOINT/HEALTHCHECK CMD as the argv Docker runs: JSON form as is, shell form via sh -c."""
    if arguments.startswith("["):
        return json.loads(arguments)
    return ["/bin/sh", "-c", arguments]


def environment_of(steps):
    env = {}
    for keyword, arguments, _ in steps:
        if keyword != "ENV":
            continue
        words = shlex.split(arguments)
        if words and "=" not in words[0]:
            env[words[0]] = " ".join(words[1:])
        else:
            for word in words:
                key, _, value = word.partition("=")
                env[key] = value
    return env


# MARK: .dockerignore

def ignore_rules():
    rules = []
    path = os.path.join(ROOT, ".dockerignore")
    if not os.path.exists(path):
        fail(".dockerignore is missing")
        return rules
    with open(path) as file:
        for line in file:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            negate = line.startswith("!")
            pattern = os.path.normpath(line.lstrip("!").lstrip("/"))
            rules.append((negate, pattern_regex(pattern)))
    return rules


def pattern_regex(pattern):
    """Docker's rules: filepath.Match per segment (`*` and `?` stay inside one), `**` any directories."""
    parts = []
    for segment in pattern.split("/"):
        if segment == "**":
            parts.append(None)
            continue
        text, index = "", 0
        while index < len(segment):
            char = segment[index]
            if char == "*":
                text += "[^/]*"
            elif char == "?":
                text += "[^/]"
            elif char == "[" and "]" in segment[index:]:
                end = segment.index("]", index)
                text += "[" + segment[index + 1:end].replace("\\", "\\\\") + "]"
                index = end
            else:
                text += re.escape(char)
            index += 1
        parts.append(text)
    regex = ""
    for index, part in enumerate(parts):
        if part is None:
            regex += "(?:.*/)?" if index < len(parts) - 1 else ".*"
        else:
            regex += part + ("/" if index < len(parts) - 1 and parts[index + 1] is not None else "")
    return re.compile("^" + regex + "$")


def ignored(relative, rules):
    """Whether Docker leaves `relative` out of the context: the last rule matching it or a parent wins."""
    candidates = []
    parts = relative.split("/")
    for index in range(1, len(parts) + 1):
        candidates.append("/".join(parts[:index]))
    verdict = False
    for negate, regex in rules:
        if any(regex.match(candidate) for candidate in candidates):
            verdict = not negate
    return verdict


def copy_from_context(source, destination, rules, label):
    """COPY SRC DEST from the build context, honoring .dockerignore; returns the files copied."""
    copied = 0
    origin = os.path.normpath(os.path.join(ROOT, source))
    if not os.path.exists(origin):
        fail(f"{label}: COPY source {source} does not exist")
        return 0
    if os.path.isdir(origin):
        for directory, _, files in os.walk(origin):
            for name in files:
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, ROOT)
                if ignored(relative, rules):
                    continue
                target = os.path.join(destination, os.path.relpath(path, origin))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(path, target)
                copied += 1
    else:
        if ignored(os.path.relpath(origin, ROOT), rules):
            fail(f"{label}: COPY source {source} is excluded by .dockerignore")
            return 0
        target = os.path.join(destination, os.path.basename(origin)) if destination.endswith("/") else destination
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(origin, target)
        copied = 1
    if copied == 0:
        fail(f"{label}: COPY {source} copies nothing once .dockerignore is applied")
    return copied


def inside(root, path, workdir="/"):
    """An absolute image path (or one relative to WORKDIR) mapped under `root`."""
    if not path.startswith("/"):
        path = os.path.join(workdir, path)
    return os.path.join(root, os.path.normpath(path).lstrip("/"))


# MARK: The checks

def build_stage(stage, scratch, rules):
    root = os.path.join(scratch, stage["name"])
    workdir = "/"
    env = dict(os.environ)
    for keyword, arguments, line in stage["steps"]:
        label = f"Dockerfile:{line} {keyword}"
        if keyword == "WORKDIR":
            workdir = os.path.join(workdir, arguments)
            os.makedirs(inside(root, workdir), exist_ok=True)
        elif keyword == "ENV":
            env.update(environment_of([(keyword, arguments, line)]))
        elif keyword == "COPY":
            flags, sources, destination = copy_arguments(arguments)
            if "from" in flags:
                fail(f"{label}: the build stage copies from another stage, which this check does not follow")
                continue
            target = inside(root, destination, workdir) + ("/" if destination.endswith("/") else "")
            for source in sources:
                count = copy_from_context(source, target, rules, label)
                ok(f"{label}: {source} -> {destination} ({count} file(s))")
        elif keyword == "RUN":
            command = exec_form(arguments)
            print(f"run  {label} in {inside(root, workdir)}: {' '.join(command)}", flush=True)
            started = time.monotonic()
            result = subprocess.run(command, cwd=inside(root, workdir), env=env)
            if result.returncode != 0:
                fail(f"{label} exited {result.returncode}")
                return root
            ok(f"{label} succeeded in {time.monotonic() - started:.0f} s")
    return root


def base_accounts():
    """Names and ids Debian's base system already uses (this machine runs the same release)."""
    names, uids, gids = set(), set(), set()
    for path, ids in (("/etc/passwd", uids), ("/etc/group", gids)):
        with open(path) as file:
            for line in file:
                fields = line.split(":")
                if len(fields) > 3 and fields[2].isdigit() and int(fields[2]) < 1000:
                    names.add(fields[0])
                    ids.add(int(fields[2]))
    return names, uids, gids


def option(words, *names):
    for index, word in enumerate(words):
        for name in names:
            if word == name and index + 1 < len(words):
                return words[index + 1]
            if word.startswith(name + "="):
                return word.split("=", 1)[1]
    return None


def debian_codename():
    try:
        with open("/etc/os-release") as file:
            for line in file:
                if line.startswith("VERSION_CODENAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def package_of(path):
    result = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if result.returncode != 0:
        real = os.path.realpath(path)
        result = subprocess.run(["dpkg", "-S", real], capture_output=True, text=True)
    return result.stdout.split(":")[0].strip() if result.returncode == 0 else None


def runtime_stage(stage, stage_roots, scratch, rules):
    root = os.path.join(scratch, "runtime")
    os.makedirs(root, exist_ok=True)
    steps = stage["steps"]
    run_text = " && ".join(arguments for keyword, arguments, _ in steps if keyword == "RUN")
    commands = [shlex.split(part) for part in re.split(r"&&|;|\|\|", run_text) if part.strip()]
    installed = set()
    for words in commands:
        if words[:2] == ["apt-get", "install"]:
            installed.update(word.split("=")[0] for word in words[2:] if not word.startswith("-"))
    workdir = "/"
    user = None
    for keyword, arguments, line in steps:
        label = f"Dockerfile:{line} {keyword}"
        if keyword == "WORKDIR":
            workdir = os.path.join(workdir, arguments)
        elif keyword == "USER":
            user = arguments
        elif keyword == "COPY":
            flags, sources, destination = copy_arguments(arguments)
            target = inside(root, destination, workdir) + ("/" if destination.endswith("/") else "")
            for source in sources:
                if "from" in flags:
                    built = inside(stage_roots.get(flags["from"], "/nonexistent"), source)
                    if not os.path.exists(built):
                        fail(f"{label}: {source} is not in stage {flags['from']} after its build")
                        continue
                    final = os.path.join(target, os.path.basename(source)) if target.endswith("/") else target
                    os.makedirs(os.path.dirname(final), exist_ok=True)
                    shutil.copy2(built, final)
                    ok(f"{label}: {source} from stage {flags['from']} exists")
                else:
                    count = copy_from_context(source, target, rules, label)
                    ok(f"{label}: {source} -> {destination} ({count} file(s))")

    # The user: numeric (runAsNonRoot cannot verify a name), not root, created by this stage, and
    # free in Debian's base (bookworm already has a user named "proxy").
    uid = gid = None
    creates_user = [words for words in commands if words and words[0] in ("useradd", "adduser")]
    creates_group = [words for words in commands if words and words[0] in ("groupadd", "addgroup")]
    if user is None:
        fail("the runtime stage has no USER: it runs as root")
    elif not re.fullmatch(r"\d+(:\d+)?", user):
        fail(f"USER {user} is not numeric: Kubernetes' runAsNonRoot cannot verify a name")
    else:
        uid, _, group = user.partition(":")
        uid, gid = int(uid), int(group or uid)
        if uid == 0:
            fail("USER is 0 (root)")
        if not any(option(words, "--uid", "-u") == str(uid) for words in creates_user):
            fail(f"USER {uid}: no useradd --uid {uid} in the stage's RUN lines")
        elif group and not any(option(words, "--gid", "-g") == str(gid) for words in creates_group):
            fail(f"USER {user}: no groupadd --gid {gid} in the stage's RUN lines")
        else:
            ok(f"USER {user} is numeric, not root, and created by the stage")
    # useradd fails on a name the base already has (bookworm has a user named "proxy").
    codename = debian_codename()
    if codename and codename in stage["base"]:
        names, uids, gids = base_accounts()
        clashes = [f"{words[0]} {words[-1]}" for words in creates_user + creates_group if words[-1] in names]
        if uid in uids or gid in gids:
            clashes.append(f"USER {user}")
        for clash in clashes:
            fail(f"{clash}: Debian {codename}'s base already has that account or id, so the RUN line fails")
        if not clashes:
            ok(f"the new account's name and ids are free in Debian {codename}'s base")
    else:
        print(f"note the runtime base {stage['base']} is not this machine's Debian ({codename}): "
              "account names were not checked against it")

    # The binary and its libraries.
    entrypoint = next((exec_form(arguments) for keyword, arguments, _ in steps if keyword == "ENTRYPOINT"), None)
    binary = inside(root, entrypoint[0]) if entrypoint else None
    if not binary or not os.access(binary, os.X_OK):
        fail(f"ENTRYPOINT {entrypoint} is not an executable file in the runtime stage")
        return root, None, uid, gid, None
    readelf = subprocess.run(["readelf", "-d", binary], capture_output=True, text=True)
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", readelf.stdout)
    base_libraries = {"libc6", "libgcc-s1", "libstdc++6", "libzstd1", "zlib1g"}  # all in bookworm-slim
    for library in needed:
        path = next((os.path.join(d, library) for d in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                                         "/lib64", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu")
                     if os.path.exists(os.path.join(d, library))), None)
        package = package_of(path) if path else None
        if package in base_libraries or package in installed:
            ok(f"linked {library} comes from {package}, which the runtime image has")
        else:
            fail(f"the binary links {library} (package {package}), which the runtime image does not install")

    # HEALTHCHECK: its program is installed by the stage.
    health = next((arguments for keyword, arguments, _ in steps if keyword == "HEALTHCHECK"), None)
    if health is None:
        fail("the runtime stage has no HEALTHCHECK")
        return root, binary, uid, gid, None
    probe = exec_form(re.sub(r"^(--\S+\s+)*CMD\s+", "", health))
    program = probe[0]
    if program in ("sh", "/bin/sh") and len(probe) >= 3 and probe[1] == "-c":
        program = shlex.split(probe[2])[0]
    located = shutil.which(program)
    package = package_of(located) if located else None
    if package in installed:
        ok(f"HEALTHCHECK runs {program}, installed by the stage (package {package})")
    else:
        fail(f"HEALTHCHECK runs {program} (package {package}), which the runtime stage does not install")
    return root, binary, uid, gid, probe


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def smoke_run(stage, root, binary, uid, gid, probe):
    """Starts the image's entrypoint as its user with its environment (paths mapped into `root`) and
    runs the HEALTHCHECK command against it."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    for key, value in environment_of(stage["steps"]).items():
        env[key] = inside(root, value) if value.startswith("/") and os.path.exists(inside(root, value)) else value
    port = free_port()
    env["HLS_PROXY_HOST"] = "127.0.0.1"  # loopback only here; the image says 0.0.0.0
    env["HLS_PROXY_PORT"] = str(port)
    prefix = []
    if os.geteuid() == 0 and uid is not None and shutil.which("setpriv"):
        prefix = ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups"]
        for directory, _, _ in os.walk(root):
            os.chmod(directory, 0o755)
        path = root
        while path != "/":
            os.chmod(path, os.stat(path).st_mode | 0o005)
            path = os.path.dirname(path)
    else:
        print("note not root or no setpriv: the smoke run is not under the image's UID")
    child = subprocess.Popen(prefix + [binary], env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        banner = ""
        deadline = time.monotonic() + 20
        while "listening on" not in banner and time.monotonic() < deadline and child.poll() is None:
            banner += child.stderr.readline()
        if "listening on" not in banner:
            fail(f"the entrypoint did not start: {banner.strip()}")
            return
        ok(f"the entrypoint started as {uid}:{gid} with the image's environment")
        print("     " + "\n     ".join(line for line in banner.splitlines() if line.strip()))
        health = subprocess.run(prefix + probe, env=env, capture_output=True, text=True, timeout=10)
        if health.returncode == 0:
            ok(f"HEALTHCHECK command {probe} exits 0")
        else:
            fail(f"HEALTHCHECK command {probe} exited {health.returncode}: {health.stderr.strip()}")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/sample/master.m3u8", timeout=10) as response:
            body = response.read().decode()
        if response.status == 200 and "TYPE=SUBTITLES" in body:
            ok("the shipped config serves /sample/master.m3u8 with subtitles from the image's layout")
        else:
            fail(f"/sample/master.m3u8 answered {response.status} without subtitles")
    except Exception as error:  # noqa: BLE001 - any failure here is a failed check, reported as such
        fail(f"smoke run: {error}")
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            status = child.wait(timeout=20)
            if status == 0:
                ok("SIGTERM drains and exits 0")
            else:
                fail(f"after SIGTERM the entrypoint exited {status}")
        except subprocess.TimeoutExpired:
            child.kill()
            fail("the entrypoint did not exit within 20 s of SIGTERM")


def check_kubernetes(binary, uid, gid):
    import yaml  # from kubernetes-validate's dependencies

    version = None
    if binary:
        result = subprocess.run([binary, "--version"], capture_output=True, text=True)
        version = result.stdout.split()[-1] if result.returncode == 0 and result.stdout.split() else None
    for name in sorted(os.listdir(os.path.join(ROOT, "deploy"))):
        if not name.endswith((".yaml", ".yml")):
            continue
        path = os.path.join(ROOT, "deploy", name)
        with open(path) as file:
            documents = [document for document in yaml.safe_load_all(file) if document]
        for document in documents:
            if document.get("kind") == "ConfigMap" and binary:
                check_config_map(document, name, binary)
            spec = document.get("spec", {}) if document.get("kind") == "Pod" else \
                document.get("spec", {}).get("template", {}).get("spec")
            if not spec:
                continue
            label = f"deploy/{name} {document['kind']} {document['metadata']['name']}"
            if spec.get("enableServiceLinks") is False:
                ok(f"{label}: enableServiceLinks is false")
            else:
                fail(f"{label}: enableServiceLinks is not false (a Service named hls-proxy would set HLS_PROXY_PORT)")
            for container in spec.get("containers", []):
                if "hls-subtitle-proxy" not in container.get("image", ""):
                    continue
                context = {**spec.get("securityContext", {}), **container.get("securityContext", {})}
                where = f"{label} container {container['name']}"
                if context.get("runAsNonRoot") is not True:
                    fail(f"{where}: runAsNonRoot is not true")
                if context.get("runAsUser") != uid or context.get("runAsGroup") != gid:
                    fail(f"{where}: runAsUser/runAsGroup {context.get('runAsUser')}/{context.get('runAsGroup')} "
                         f"differ from the Dockerfile's USER {uid}:{gid}")
                else:
                    ok(f"{where}: runs as {uid}:{gid}, as the Dockerfile's USER")
                tag = container["image"].rsplit(":", 1)[-1]
                if version and tag != version:
                    fail(f"{where}: image tag {tag} is not the version {version}")
                elif version:
                    ok(f"{where}: image tag {tag} is the version --version prints")


def check_config_map(document, name, binary):
    """Each JSON file in a ConfigMap passes --check-config (its ${VAR} references set to placeholders)."""
    for key, text in sorted(document.get("data", {}).items()):
        if not key.endswith(".json"):
            continue
        label = f"deploy/{name} ConfigMap {document['metadata']['name']} {key}"
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, key)
            with open(path, "w") as file:
                file.write(text)
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            env.update({variable: "placeholder" for variable in re.findall(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", text)})
            result = subprocess.run([binary, "--check-config", "--config", path], env=env, capture_output=True, text=True)
        if result.returncode == 0:
            ok(f"{label} passes --check-config")
        else:
            fail(f"{label} fails --check-config: {(result.stdout + result.stderr).strip()}")


def main():
    keep = "--keep" in sys.argv
    scratch = tempfile.mkdtemp(prefix="docker-stages-")
    try:
        found = stages(os.path.join(ROOT, "Dockerfile"))
        if len(found) < 2:
            fail("the Dockerfile should have a build stage and a runtime stage")
            return 1
        rules = ignore_rules()
        roots = {}
        for stage in found[:-1]:
            print(f"== build stage {stage['name']} ({stage['base']}) from the COPY lines' files in {scratch}", flush=True)
            roots[stage["name"]] = build_stage(stage, scratch, rules)
        print(f"== runtime stage ({found[-1]['base']})", flush=True)
        root, binary, uid, gid, probe = runtime_stage(found[-1], roots, scratch, rules)
        if binary and probe and not problems:
            smoke_run(found[-1], root, binary, uid, gid, probe)
        print("== deploy/*.yaml against the image", flush=True)
        check_kubernetes(binary, uid, gid)
    finally:
        if keep:
            print(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    if problems:
        print(f"deploy check: {len(problems)} problem(s)")
        return 1
    print("deploy check: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
