"""The Docker files fit the code: the image copies what exists and is not ignored,
and installs the tested versions; the cluster layout names nodes that exist,
forms them all into one cluster, and sets only settings the server reads. (No
Docker engine runs where the tests do, so the files are checked, not started.)"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from stacks_api.store.redis_connect import is_cluster

ROOT = Path(__file__).parent.parent
CONFIG = (ROOT / "stacks_api" / "runtime" / "config.py").read_text() + (
    ROOT / "stacks_api" / "cli.py"
).read_text()


def services(name: str) -> dict:
    return yaml.safe_load((ROOT / name).read_text())["services"]


def test_the_cluster_layout_forms_every_node_into_one_cluster_the_servers_reach():
    found = services("docker-compose.cluster.yml")
    nodes = {name: spec["networks"]["stacks"]["ipv4_address"]
             for name, spec in found.items() if re.fullmatch(r"redis-\d", name)}  # fmt: skip
    assert len(nodes) == 6
    for name in nodes:
        command = found[name]["command"]
        assert command[command.index("--cluster-enabled") + 1] == "yes"
    formation = found["redis-init"]["command"][0]
    created = re.search(r"--cluster create (.*?) --cluster-replicas 1", formation, re.S)
    assert created and sorted(created.group(1).split()) == sorted(
        f"{a}:6379" for a in nodes.values()
    )
    for name in ("api-1", "api-2", "worker-1", "worker-2"):
        url = found[name]["environment"]["REDIS_URL"]
        assert is_cluster(url)
        assert {a.rpartition(":")[0] for a in urlsplit(url).netloc.split(",")} <= set(
            nodes.values()
        )
        assert (
            found[name]["depends_on"]["redis-init"]["condition"] == "service_completed_successfully"
        )


def test_compose_files_set_only_settings_the_server_reads():
    for name in ("docker-compose.yml", "docker-compose.cluster.yml"):
        ours = [s for s in services(name).values() if "build" in s]  # not redis or postgres
        assert ours
        for service in ours:
            for variable in service.get("environment") or {}:
                assert variable in ("REDIS_URL", "WEB_CONCURRENCY") or (
                    f'"{variable}"' in CONFIG
                ), f"{name} sets {variable}, which nothing reads"


def test_every_server_of_the_compose_files_keeps_its_archive_in_postgresql():
    for name in ("docker-compose.yml", "docker-compose.cluster.yml"):
        found = services(name)
        for service in (s for s in found.values() if "build" in s):
            url = urlsplit(service["environment"]["DATABASE_URL"])
            assert url.scheme == "postgresql" and url.hostname in found


def test_the_image_copies_what_the_build_context_holds_and_installs_the_tested_versions():
    dockerfile = (ROOT / "Dockerfile").read_text()
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()}
    copied = [part for line in dockerfile.splitlines() if line.startswith("COPY ")
              for part in line.split()[1:-1]]  # fmt: skip
    assert "constraints.txt" in copied and "stacks_api" in copied
    for source in copied:
        assert (ROOT / source).exists(), f"the Dockerfile copies {source}, which is not there"
        assert source not in ignored, f".dockerignore leaves {source} out of the build"
    assert "-c constraints.txt" in dockerfile, "the image installs the versions the tests ran"
