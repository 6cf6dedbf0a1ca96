"""The distributed full rebuild (docs/distributed.md): infra/rebuild.asl.json, parsed by moto's Step
Functions parser, and its place in infra/template.yaml: the four functions, the state machine,
each role's least privilege, the scheduled rebuild and the optional S3 Inventory."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from test_infra import (
    ACCOUNT,
    BUCKET,
    MODES,
    OWN_OUTPUTS,
    PAGES,
    PARTITION,
    REGION,
    STACK,
    STATE_BUCKET,
    TEMPLATE,
    VARIANTS,
    Stack,
    _listed,
    allowed,
    assert_no_wildcards,
    load_template,
    make_stack,
    object_arn,
    references,
    state_arn,
    statements_with,
    translate,
)

ASL = TEMPLATE.parent / "rebuild.asl.json"

# Each function of the rebuild: its handler in lambda/handler.py, its role, its log group.
WORKERS = {
    "PlanFunction": ("handler.plan", "PlanRole", "PlanLogGroup", "MemorySize"),
    "ShuffleFunction": ("handler.shuffle", "ShuffleRole", "ShuffleLogGroup", "ShardMemorySize"),
    "ShardFunction": ("handler.shard", "ShardRole", "ShardLogGroup", "ShardMemorySize"),
    "ReduceFunction": ("handler.reduce", "ReduceRole", "ReduceLogGroup", "MemorySize"),
}
SUBSTITUTIONS = {
    "PlanFunctionArn": "PlanFunction",
    "ShuffleFunctionArn": "ShuffleFunction",
    "ShardFunctionArn": "ShardFunction",
    "ReduceFunctionArn": "ReduceFunction",
}
WORKER_ROLES = {role for _, role, _, _ in WORKERS.values()}
MACHINE = f"{STACK}-rebuild"
MACHINE_ARN = f"arn:{PARTITION}:states:{REGION}:{ACCOUNT}:stateMachine:{MACHINE}"
INVENTORY_FOLDER = f"inventory/{BUCKET}/sitemill/"

LAMBDA_RETRIER = {
    "ErrorEquals": [
        "Lambda.ServiceException",
        "Lambda.AWSLambdaException",
        "Lambda.SdkClientException",
        "Lambda.TooManyRequestsException",
    ],
    "IntervalSeconds": 2,
    "MaxAttempts": 6,
    "BackoffRate": 2.0,
    "MaxDelaySeconds": 60,
    "JitterStrategy": "FULL",
}
# sitemill's transient errors: the Python runtime reports the exception's class name.
SITEMILL_RETRIER = {
    "ErrorEquals": ["SourceError", "SinkError", "ConflictError"],
    "IntervalSeconds": 5,
    "MaxAttempts": 3,
    "BackoffRate": 2.0,
    "JitterStrategy": "FULL",
}
NEVER_RETRIED = ("IncompleteRunError", "InventoryError", "ConfigError", "States.ALL")
# Zero tolerance is the default and the reducer's check is the verdict; no batching, no
# manifest reader, no result export.
FORBIDDEN = (
    "ItemBatcher",
    "ResultWriter",
    "ToleratedFailurePercentage",
    "ToleratedFailurePercentagePath",
    "ToleratedFailureCount",
    "ToleratedFailureCountPath",
    "MaxConcurrencyPath",
    "ManifestType",
)

SCHEDULES = {"off": None, "daily": "rate(1 day)", "weekly": "rate(7 days)"}
INVENTORY = {"Inventory": "daily"}
EVERYTHING = {
    "SourcePrefix": "site/",
    "RobotsTxt": "true",
    "CloudFrontDistributionId": "E2ABC123",
    "IndexNowKey": "5f0c2a9e-sitemill-infra-key-7b41",
    "IndexNowWriteKeyFile": "true",
    "FullRebuildSchedule": "daily",
    "Inventory": "daily",
}


@dataclass
class RebuildStack(Stack):
    """A Stack whose state machine's Ref is its ARN (as CloudFormation's Ref of one is)."""

    def value(self, name: str) -> str:
        if name == "RebuildStateMachine":
            machine = self.template["Resources"]["RebuildStateMachine"]["Properties"]
            return f"arn:{PARTITION}:states:{REGION}:{ACCOUNT}:stateMachine:" + str(
                self.resolve(machine["StateMachineName"])
            )
        return super().value(name)


def rebuild_stack(translated: Mapping[str, Any], *overrides: Mapping[str, str]) -> RebuildStack:
    stack = make_stack(translated, *overrides)
    return RebuildStack(stack.template, stack.parameters)


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def translated(template: dict[str, Any]) -> dict[str, Any]:
    return translate(template)


@pytest.fixture(scope="module")
def definition() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(ASL.read_text(encoding="utf-8"))
    return loaded


def strings(node: Any) -> Iterator[str]:
    """Every string in a JSON value: keys and values."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from strings(item)
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from strings(value)


def dicts(node: Any) -> Iterator[dict[str, Any]]:
    """Every object in a JSON value, ``node`` first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from dicts(value)
    elif isinstance(node, list):
        for item in node:
            yield from dicts(item)


def tasks(states: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every Task state, those of the Maps' item processors included."""
    for name, state in states.items():
        if state["Type"] == "Task":
            yield name, state
        if state["Type"] == "Map":
            yield from tasks(state["ItemProcessor"]["States"])


# --- the definition ----------------------------------------------------------------------


def test_definition_is_json_with_substitutions_only_inside_strings(
    definition: dict[str, Any], template: dict[str, Any]
) -> None:
    text = ASL.read_text(encoding="utf-8")
    pattern = re.compile(r"\$\{([A-Za-z0-9]+)\}")
    in_strings = [name for value in strings(definition) for name in pattern.findall(value)]
    assert sorted(in_strings) == sorted(pattern.findall(text))  # none outside a string
    assert "${" not in pattern.sub("", text)  # and no other ${...} that CloudFormation reads
    machine = template["Resources"]["RebuildStateMachine"]["Properties"]
    assert set(in_strings) == set(machine["DefinitionSubstitutions"]) == set(SUBSTITUTIONS)
    for name, function in SUBSTITUTIONS.items():
        assert machine["DefinitionSubstitutions"][name] == {"Fn::GetAtt": [function, "Arn"]}


def test_moto_parses_the_definition_once_substituted() -> None:
    # (imported here: moto's ASL parser costs each worker that collects this module 0.75 s of CPU
    # to import; only the one that runs this test needs it)
    from moto.stepfunctions.parser.asl.parse.asl_parser import AmazonStateLanguageParser

    text = ASL.read_text(encoding="utf-8")
    for name, function in SUBSTITUTIONS.items():
        arn = f"arn:{PARTITION}:lambda:{REGION}:{ACCOUNT}:function:{STACK}-{function}"
        text = text.replace("${" + name + "}", arn)
    assert "${" not in text
    program, _ = AmazonStateLanguageParser.parse(text)  # raises ASLParserException
    assert program is not None


def invoke(function: str) -> str:
    return "${" + function + "}"


def test_data_flow_is_the_contracts(definition: dict[str, Any]) -> None:
    states = definition["States"]
    assert definition["StartAt"] == "Plan"
    assert set(states) == {"Plan", "Inventory?", "Shuffle", "Render", "Reduce"}
    plan = states["Plan"]
    assert plan["Resource"] == "arn:aws:states:::lambda:invoke"
    assert plan["Parameters"] == {
        "FunctionName": invoke("PlanFunctionArn"),
        "Payload": {"input.$": "$", "run.$": "$$.Execution.Name"},
    }
    assert (plan["OutputPath"], plan["Next"]) == ("$.Payload", "Inventory?")
    choice = states["Inventory?"]
    assert choice["Type"] == "Choice"
    assert choice["Choices"] == [
        {
            "And": [
                {"Variable": "$.inventory", "IsPresent": True},
                {"Variable": "$.inventory", "IsNull": False},
            ],
            "Next": "Shuffle",
        }
    ]
    assert choice["Default"] == "Render"
    assert states["Shuffle"]["Next"] == "Render"
    assert states["Render"]["Next"] == "Reduce"
    reduce = states["Reduce"]
    assert reduce["Parameters"] == {"FunctionName": invoke("ReduceFunctionArn"), "Payload.$": "$"}
    assert (reduce["OutputPath"], reduce["End"]) == ("$.Payload", True)
    assert "ResultPath" not in reduce and "InputPath" not in reduce


@pytest.mark.parametrize(
    ("name", "items_key", "function"),
    [
        ("Shuffle", "$.inventory.items_key", "ShuffleFunctionArn"),
        ("Render", "$.shards_key", "ShardFunctionArn"),
    ],
)
def test_maps_read_their_items_from_the_run_and_pass_the_plan_on(
    definition: dict[str, Any], name: str, items_key: str, function: str
) -> None:
    state = definition["States"][name]
    assert state["Type"] == "Map"
    assert state["ItemReader"] == {
        "Resource": "arn:aws:states:::s3:getObject",
        "ReaderConfig": {"InputType": "JSON"},
        "Parameters": {"Bucket.$": "$.state_bucket", "Key.$": items_key},
    }
    # ResultPath null: the plan's output reaches the next state unchanged.
    assert "ResultPath" in state and state["ResultPath"] is None
    assert not {"InputPath", "OutputPath", "ItemSelector", "ItemsPath"} & set(state)
    assert type(state["MaxConcurrency"]) is int and 0 < state["MaxConcurrency"] <= 10_000
    processor = state["ItemProcessor"]
    assert processor["ProcessorConfig"] == {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"}
    ((task_name, task),) = processor["States"].items()
    assert processor["StartAt"] == task_name
    assert task["Type"] == "Task" and task["End"] is True
    assert task["Resource"] == "arn:aws:states:::lambda:invoke"
    assert task["Parameters"] == {"FunctionName": invoke(function), "Payload.$": "$"}
    # Each child returns {}: thousands of results stay far below the Map's result quota.
    assert "OutputPath" in task and task["OutputPath"] is None


def test_no_batching_manifest_export_or_tolerance(definition: dict[str, Any]) -> None:
    for node in dicts(definition):
        assert not set(FORBIDDEN) & set(node), node
        assert node.get("InputType", "JSON") == "JSON"
        assert node.get("Mode", "DISTRIBUTED") == "DISTRIBUTED"


def test_every_task_retries_transient_errors_with_full_jitter(definition: dict[str, Any]) -> None:
    found = dict(tasks(definition["States"]))
    assert set(found) == {"Plan", "ShuffleOne", "RenderOne", "Reduce"}
    for name, task in found.items():
        assert task["Retry"] == [LAMBDA_RETRIER, SITEMILL_RETRIER], name
        for retrier in task["Retry"]:
            assert type(retrier["BackoffRate"]) is float, name
            assert not set(NEVER_RETRIED) & set(retrier["ErrorEquals"]), name
        assert "Catch" not in task, name  # a failure fails the run: nothing is published
    assert not any(
        "Retry" in state for state in definition["States"].values() if state["Type"] == "Map"
    )


# --- the functions and the state machine in the template ---------------------------------


def test_the_four_functions_are_the_routers_zip_and_environment(
    template: dict[str, Any], translated: dict[str, Any]
) -> None:
    resources = translated["Resources"]
    router = resources["SitemillFunction"]["Properties"]
    shared = dict(router["Environment"]["Variables"])
    machine = shared.pop("SITEMILL_STATE_MACHINE_ARN")
    code = template["Resources"]["SitemillFunction"]["Properties"]["CodeUri"]
    for name, (handler, role, log_group, memory) in WORKERS.items():
        function = resources[name]["Properties"]
        assert template["Resources"][name]["Properties"]["CodeUri"] == code, name
        assert function["Handler"] == handler
        assert function["Runtime"] == router["Runtime"]
        assert function["Architectures"] == router["Architectures"]
        assert function["Timeout"] == 900
        assert function["MemorySize"] == {"Ref": memory}
        assert "ReservedConcurrentExecutions" not in function, name
        assert function["Role"] == {"Fn::GetAtt": [role, "Arn"]}
        assert function["LoggingConfig"] == {"LogGroup": {"Ref": log_group}}
        variables = dict(function["Environment"]["Variables"])
        assert "SITEMILL_INVENTORY" in variables
        del variables["SITEMILL_INVENTORY"]
        # The reducer starts the next run when its own was superseded (and only it).
        if name == "ReduceFunction":
            assert variables.pop("SITEMILL_STATE_MACHINE_ARN") == machine
        assert variables == shared, name  # the same SITEMILL_* list as the router, no drift
    memory = translated["Parameters"]["ShardMemorySize"]
    assert (memory["Type"], memory["Default"]) == ("Number", 1024)


def test_only_the_router_and_the_reducer_know_the_state_machine(
    translated: dict[str, Any],
) -> None:
    stack = rebuild_stack(translated)
    for name, resource in stack.resources().items():
        if resource["Type"] != "AWS::Lambda::Function":
            continue
        variables = resource["Properties"]["Environment"]["Variables"]
        if name == "SitemillFunction":
            assert variables["SITEMILL_STATE_MACHINE_ARN"] == MACHINE_ARN
            assert "SITEMILL_INVENTORY" not in variables
        elif name == "ReduceFunction":  # (a superseded run starts the next one)
            assert variables["SITEMILL_STATE_MACHINE_ARN"] == MACHINE_ARN
        else:
            assert "SITEMILL_STATE_MACHINE_ARN" not in variables, name
    assert stack.value("RebuildStateMachine") == MACHINE_ARN  # the ARN its fixed name gives


def test_state_machine_is_standard_from_the_definition_file(
    template: dict[str, Any], translated: dict[str, Any]
) -> None:
    source = template["Resources"]["RebuildStateMachine"]
    assert source["Type"] == "AWS::Serverless::StateMachine"
    assert (TEMPLATE.parent / source["Properties"]["DefinitionUri"]).resolve() == ASL
    machine = translated["Resources"]["RebuildStateMachine"]
    assert machine["Type"] == "AWS::StepFunctions::StateMachine"
    properties = machine["Properties"]
    assert properties["StateMachineType"] == "STANDARD"
    assert properties["StateMachineName"] == {"Fn::Sub": "${AWS::StackName}-rebuild"}
    assert properties["RoleArn"] == {"Fn::GetAtt": ["StateMachineRole", "Arn"]}
    assert set(properties["DefinitionSubstitutions"]) == set(SUBSTITUTIONS)


def cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """A dependency cycle among resources, or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for target in sorted(graph.get(node, ())):
            found = visit(target, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for node in graph:
        found = visit(node, [])
        if found:
            return found
    return None


def test_no_circular_dependency(translated: dict[str, Any]) -> None:
    resources = translated["Resources"]
    graph = {
        name: (references(resource) | set(_listed(resource.get("DependsOn", [])))) & set(resources)
        for name, resource in resources.items()
    }
    assert cycle(graph) is None, cycle(graph)
    # The machine depends on the functions; the router and the roles name it by its ARN.
    assert "RebuildStateMachine" not in references(resources["FunctionRole"])
    assert "RebuildStateMachine" not in references(resources["SitemillFunction"])
    assert "RebuildStateMachine" not in references(resources["StateMachineRole"])


# --- IAM -------------------------------------------------------------------------------------


ROLE_OPTIONS = [
    pytest.param({}, id="defaults"),
    pytest.param(INVENTORY, id="inventory"),
    pytest.param({"FullRebuildSchedule": "weekly"}, id="schedule"),
    pytest.param(EVERYTHING, id="everything"),
]


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("options", ROLE_OPTIONS)
def test_no_wildcards_in_any_role(
    translated: dict[str, Any], mode: dict[str, str], options: dict[str, str]
) -> None:
    assert_no_wildcards(rebuild_stack(translated, mode, options).role_statements(None))


def roles(stack: Stack) -> dict[str, list[dict[str, Any]]]:
    return {
        name: stack.role_statements(name)
        for name, resource in stack.resources().items()
        if resource["Type"] == "AWS::IAM::Role"
    }


@pytest.mark.parametrize("schedule", SCHEDULES)
def test_only_the_router_the_reducer_the_schedule_and_the_maps_start_this_machine(
    translated: dict[str, Any], schedule: str
) -> None:
    stack = rebuild_stack(translated, {"FullRebuildSchedule": schedule})
    starters = set()
    for role, statements in roles(stack).items():
        for statement in statements_with(statements, "states:"):
            actions = set(_listed(statement["Action"]))
            if "states:StartExecution" in actions:
                starters.add(role)
                assert actions == {"states:StartExecution"}, role
                assert _listed(statement["Resource"]) == [MACHINE_ARN], role
            else:  # the Distributed Maps' children, executions of this machine only
                assert role == "StateMachineRole"
                assert actions == {"states:DescribeExecution", "states:StopExecution"}
                execution = f"arn:{PARTITION}:states:{REGION}:{ACCOUNT}:execution:{MACHINE}"
                assert _listed(statement["Resource"]) == [f"{execution}/*", f"{execution}:*"]
    expected = {"FunctionRole", "StateMachineRole", "ReduceRole"}  # (a superseded run's next)
    if schedule != "off":
        expected.add("FullRebuildScheduleRole")
    assert starters == expected


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("variant", [*VARIANTS, pytest.param(EVERYTHING, id="all options")])
def test_only_the_reducer_and_the_router_write_the_site_bucket(
    translated: dict[str, Any], mode: dict[str, str], variant: dict[str, str]
) -> None:
    stack = rebuild_stack(translated, mode, variant)
    prefix = stack.value("SourcePrefix")
    site = f"arn:{PARTITION}:s3:::{BUCKET}"
    for role, statements in roles(stack).items():
        writers = {"FunctionRole", "ReduceRole"}
        for statement in statements:
            for action in _listed(statement["Action"]):
                if action in ("s3:PutObject", "s3:DeleteObject"):
                    resources = _listed(statement["Resource"])
                    on_site = [r for r in resources if r == site or r.startswith(site + "/")]
                    assert role in writers or not on_site, (role, statement)
        for name in OWN_OUTPUTS:
            for action in ("s3:PutObject", "s3:DeleteObject"):
                assert allowed(statements, action, object_arn(prefix + name)) is (
                    role in writers
                ), (role, action, name)
        for page in PAGES:
            for action in ("s3:PutObject", "s3:DeleteObject"):
                assert not allowed(statements, action, object_arn(prefix + page)), (role, page)


@pytest.mark.parametrize("variant", [*VARIANTS, pytest.param(EVERYTHING, id="all options")])
def test_the_reducer_has_the_routers_grants_on_the_sites_outputs(
    translated: dict[str, Any], variant: dict[str, str]
) -> None:
    stack = rebuild_stack(translated, variant)
    router = {s["Sid"]: s for s in stack.role_statements("FunctionRole")}
    reduce = {s["Sid"]: s for s in stack.role_statements("ReduceRole")}
    for sid in ("ListSite", "ReadOwnOutputs", "WriteOwnOutputs"):
        assert reduce[sid] == router[sid], sid
    for sid in ("InvalidateSitemaps", "ReadWriteIndexNowKeyFile"):
        assert reduce.get(sid) == router.get(sid), sid
    robots = object_arn(stack.value("SourcePrefix") + "robots.txt")
    managed = stack.value("RobotsTxt") == "true"
    statements = list(reduce.values())
    for action in ("s3:GetObject", "s3:PutObject"):
        assert allowed(statements, action, robots) is managed, action
    assert not allowed(statements, "s3:DeleteObject", robots)


@pytest.mark.parametrize("options", ROLE_OPTIONS)
def test_workers_never_delete_and_the_reducer_deletes_only_run_files_and_shard_states(
    translated: dict[str, Any], options: dict[str, str]
) -> None:
    stack = rebuild_stack(translated, options)
    every = roles(stack)
    for role in ("PlanRole", "ShuffleRole", "ShardRole", "StateMachineRole"):
        deletes = [s for s in every[role] if "s3:DeleteObject" in _listed(s["Action"])]
        assert deletes == [], role
    prefix = stack.value("SourcePrefix")
    state = f"{BUCKET}/{prefix}sitemill-state/"
    reduce = every["ReduceRole"]
    for key in ("runs/full-1/shards.json", "runs/full-1/parts/rabcdefgh.xml", "shards/r1.json.gz"):
        assert allowed(reduce, "s3:DeleteObject", state_arn(state + key)), key
    for key in ("plan.json", "index-state.json", "indexnow.json.gz"):
        assert not allowed(reduce, "s3:DeleteObject", state_arn(state + key)), key


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_role_can_do_its_part_and_no_more(
    translated: dict[str, Any], variant: dict[str, str]
) -> None:
    stack = rebuild_stack(translated, variant, INVENTORY)
    every = roles(stack)
    prefix = stack.value("SourcePrefix")
    state = f"{BUCKET}/{prefix}sitemill-state/"
    run = state + "runs/full-1/"
    report = state_arn(INVENTORY_FOLDER + "data/0a1b.csv.gz")

    def can(role: str, action: str, arn: str) -> bool:
        return allowed(every[role], action, arn)

    for role in ("PlanRole", "ShardRole", "ReduceRole"):  # the partitioned state
        for key in ("plan.json", "index-state.json", "shards/r1.json.gz", "runs/full-1/x"):
            for action in ("s3:GetObject", "s3:PutObject"):
                assert can(role, action, state_arn(state + key)), (role, key)
    for role in ("PlanRole", "ShardRole"):  # the site: listed, robots.txt read
        assert can(role, "s3:ListBucket", f"arn:{PARTITION}:s3:::{BUCKET}")
        assert can(role, "s3:GetObject", object_arn(prefix + "robots.txt")), role
    assert can("ShardRole", "s3:GetObject", object_arn(prefix + "a/b/index.html"))
    for role in ("PlanRole", "ShuffleRole", "ReduceRole", "StateMachineRole"):
        assert not can(role, "s3:GetObject", object_arn(prefix + "a/b/index.html")), role
    # The shuffle: the report's data files in, this run's fragments out; no state, no site.
    assert can("ShuffleRole", "s3:GetObject", report)
    for action in ("s3:GetObject", "s3:PutObject"):
        assert can("ShuffleRole", action, state_arn(run + "fragments/r1/0a1b.json.gz"))
        assert not can("ShuffleRole", action, state_arn(state + "shards/r1.json.gz"))
        assert not can("ShuffleRole", action, state_arn(state + "plan.json"))
    site = f"arn:{PARTITION}:s3:::{BUCKET}"
    assert not can("ShuffleRole", "s3:ListBucket", site)
    assert not can("ShuffleRole", "s3:GetObject", object_arn(prefix + "robots.txt"))
    # The report: listed and read by the planner, read by the shuffle, written by nobody.
    assert can(
        "PlanRole", "s3:GetObject", state_arn(INVENTORY_FOLDER + "2024-03-01T00-00Z/manifest.json")
    )
    (listing,) = (s for s in every["PlanRole"] if s["Sid"] == "ListInventory")
    assert listing["Condition"] == {"StringLike": {"s3:prefix": INVENTORY_FOLDER + "*"}}
    for role, statements in every.items():
        assert not allowed(statements, "s3:PutObject", report), role
        if role not in ("PlanRole", "ShuffleRole"):
            assert not allowed(statements, "s3:GetObject", report), role
    # The reducer copies the staged children from the run to the site.
    assert can("ReduceRole", "s3:GetObject", state_arn(run + "parts/rabcdefgh.xml"))
    assert can("ReduceRole", "s3:PutObject", object_arn(prefix + "sitemap-rabcdefgh.xml"))
    # The machine reads the Maps' items of a run, and nothing else of the state.
    machine = every["StateMachineRole"]
    assert can("StateMachineRole", "s3:GetObject", state_arn(run + "shards.json"))
    for key in ("plan.json", "shards/r1.json.gz", "index-state.json"):
        assert not can("StateMachineRole", "s3:GetObject", state_arn(state + key)), key
    assert {a for s in machine for a in _listed(s["Action"])} == {
        "lambda:InvokeFunction",
        "s3:GetObject",
        "states:StartExecution",
        "states:DescribeExecution",
        "states:StopExecution",
    }
    # Each function writes its own logs only.
    for name, (_, role, log_group, _) in WORKERS.items():
        (logs,) = statements_with(every[role], "logs:")
        assert logs["Resource"].endswith(f":{log_group}.Arn"), name


def test_the_machine_invokes_exactly_the_four_functions(translated: dict[str, Any]) -> None:
    stack = rebuild_stack(translated)
    (invoke_statement,) = statements_with(stack.role_statements("StateMachineRole"), "lambda:")
    assert invoke_statement["Action"] == "lambda:InvokeFunction"
    arns = [
        f"arn:{PARTITION}:test:{REGION}:{ACCOUNT}:{name}.Arn" for name in SUBSTITUTIONS.values()
    ]
    assert sorted(invoke_statement["Resource"]) == sorted([*arns, *(f"{a}:*" for a in arns)])
    trust = stack.resources()["StateMachineRole"]["Properties"]["AssumeRolePolicyDocument"]
    ((principal),) = (s["Principal"] for s in trust["Statement"])
    assert principal == {"Service": "states.amazonaws.com"}
    for role in WORKER_ROLES | {"FunctionRole"}:
        assert not list(statements_with(stack.role_statements(role), "lambda:")), role


# --- the scheduled full rebuild, the outputs ---------------------------------------------------


def contract_input(prefix: str) -> dict[str, str]:
    """A full rebuild's execution input (docs/distributed.md)."""
    return {"bucket": BUCKET, "prefix": prefix, "mode": "full"}


@pytest.mark.parametrize("schedule", SCHEDULES)
@pytest.mark.parametrize("prefix", ["", "site/", "a/b c/"])
def test_the_schedule_starts_a_full_rebuild_with_the_contracts_input(
    translated: dict[str, Any], schedule: str, prefix: str
) -> None:
    stack = rebuild_stack(translated, {"FullRebuildSchedule": schedule, "SourcePrefix": prefix})
    resources = stack.resources()
    if SCHEDULES[schedule] is None:
        assert "FullRebuildRule" not in resources
        assert "FullRebuildScheduleRole" not in resources
        return
    rule = resources["FullRebuildRule"]["Properties"]
    assert rule["ScheduleExpression"] == SCHEDULES[schedule]
    assert rule["State"] == "ENABLED"
    (target,) = rule["Targets"]
    assert target["Arn"] == MACHINE_ARN
    assert target["RoleArn"].endswith(":FullRebuildScheduleRole.Arn")
    assert json.loads(target["Input"]) == contract_input(prefix)
    trust = resources["FullRebuildScheduleRole"]["Properties"]["AssumeRolePolicyDocument"]
    (statement,) = trust["Statement"]
    assert statement["Principal"] == {"Service": "events.amazonaws.com"}
    assert statement["Condition"] == {"StringEquals": {"aws:SourceAccount": ACCOUNT}}
    assert [s["Action"] for s in stack.role_statements("FullRebuildScheduleRole")] == [
        "states:StartExecution"
    ]


@pytest.mark.parametrize("prefix", ["", "site/"])
def test_outputs_name_the_machine_and_a_full_rebuild_command(
    translated: dict[str, Any], prefix: str
) -> None:
    stack = rebuild_stack(translated, {"SourcePrefix": prefix})
    outputs = translated["Outputs"]
    assert stack.resolve(outputs["StateMachineArn"]["Value"]) == MACHINE_ARN
    command = shlex.split(stack.resolve(outputs["FullRebuildCommand"]["Value"]))
    assert command[:3] == ["aws", "stepfunctions", "start-execution"]
    options = dict(zip(command[3::2], command[4::2], strict=True))
    assert options["--state-machine-arn"] == MACHINE_ARN
    assert json.loads(options["--input"]) == contract_input(prefix)


@pytest.mark.parametrize(
    ("prefix", "ok"), [("a/b c/", True), ('a"b/', False), ("a\\b/", False), ("é/", True)]
)
def test_source_prefix_stays_json(template: dict[str, Any], prefix: str, ok: bool) -> None:
    # The prefix is written into the schedule's input: no character JSON would escape.
    pattern = template["Parameters"]["SourcePrefix"]["AllowedPattern"]
    assert (re.fullmatch(pattern, prefix) is not None) is ok
    if ok:
        assert json.loads(f'"{prefix}"') == prefix


# --- S3 Inventory and the state bucket's lifecycle ---------------------------------------------


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("inventory", ["off", "daily"])
@pytest.mark.parametrize("prefix", ["", "site/"])
def test_the_inventory_lands_where_the_functions_look(
    translated: dict[str, Any], mode: dict[str, str], inventory: str, prefix: str
) -> None:
    stack = rebuild_stack(translated, mode, {"Inventory": inventory, "SourcePrefix": prefix})
    resources = stack.resources()
    on = inventory == "daily"
    location = f"s3://{STATE_BUCKET}/{INVENTORY_FOLDER}" if on else ""
    for name in WORKERS:
        variables = resources[name]["Properties"]["Environment"]["Variables"]
        assert variables["SITEMILL_INVENTORY"] == location, name
    # AWS lays a report out as <destination prefix>/<source bucket>/<configuration id>/.
    if mode["CreateBucket"] == "true":
        configurations = resources["SiteBucket"]["Properties"].get("InventoryConfigurations")
        if not on:
            assert configurations is None
        else:
            (configuration,) = configurations
            destination = configuration["Destination"]
            assert destination["BucketArn"].endswith(":StateBucket.Arn")
            assert destination["BucketAccountId"] == ACCOUNT
            folder = f"{destination['Prefix']}/{BUCKET}/{configuration['Id']}/"
            assert folder == INVENTORY_FOLDER
            assert (destination["Format"], configuration["ScheduleFrequency"]) == ("CSV", "Daily")
            assert configuration["IncludedObjectVersions"] == "Current"
            assert configuration["Enabled"] is True
            assert set(configuration["OptionalFields"]) == {"Size", "LastModifiedDate", "ETag"}
            assert configuration.get("Prefix") == (prefix or None)
    statements = resources["StateBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    delivery = [s for s in statements if s["Effect"] == "Allow"]
    if not on:
        assert delivery == []
        return
    (statement,) = delivery
    assert statement["Principal"] == {"Service": "s3.amazonaws.com"}
    assert statement["Action"] == "s3:PutObject"
    bucket_arn = f"arn:{PARTITION}:test:{REGION}:{ACCOUNT}:StateBucket.Arn"
    assert statement["Resource"] == f"{bucket_arn}/{INVENTORY_FOLDER}*"
    assert statement["Condition"] == {
        "ArnLike": {"aws:SourceArn": f"arn:{PARTITION}:s3:::{BUCKET}"},
        "StringEquals": {
            "aws:SourceAccount": ACCOUNT,
            "s3:x-amz-acl": "bucket-owner-full-control",
        },
    }


@pytest.mark.parametrize("prefix", ["", "site/"])
def test_run_files_and_reports_expire_and_the_state_never_does(
    translated: dict[str, Any], prefix: str
) -> None:
    stack = rebuild_stack(translated, {"SourcePrefix": prefix})
    bucket = stack.resources()["StateBucket"]["Properties"]
    rules = {rule["Id"]: rule for rule in bucket["LifecycleConfiguration"]["Rules"]}
    assert rules == {
        "ExpireRunFiles": {
            "Id": "ExpireRunFiles",
            "Status": "Enabled",
            "Prefix": f"{BUCKET}/{prefix}sitemill-state/runs/",
            "ExpirationInDays": 7,
        },
        "ExpireInventoryReports": {
            "Id": "ExpireInventoryReports",
            "Status": "Enabled",
            "Prefix": "inventory/",
            "ExpirationInDays": 14,
        },
    }
    state = f"{BUCKET}/{prefix}sitemill-state/"
    for key in (
        f"{BUCKET}/{prefix}sitemill-state.json.gz",
        state + "plan.json",
        state + "shards/r1.json.gz",
    ):
        assert not any(key.startswith(rule["Prefix"]) for rule in rules.values()), key


def test_parameters(translated: dict[str, Any]) -> None:
    parameters = translated["Parameters"]
    assert parameters["FullRebuildSchedule"]["AllowedValues"] == list(SCHEDULES)
    assert parameters["FullRebuildSchedule"]["Default"] == "off"
    assert parameters["Inventory"]["AllowedValues"] == ["off", "daily"]
    assert parameters["Inventory"]["Default"] == "off"
    groups = translated["Metadata"]["AWS::CloudFormation::Interface"]["ParameterGroups"]
    grouped = {name for group in groups for name in group["Parameters"]}
    assert {"ShardMemorySize", "FullRebuildSchedule", "Inventory"} <= grouped
