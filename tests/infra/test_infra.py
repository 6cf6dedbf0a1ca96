"""infra/template.yaml: cfn-lint, the SAM transform, and the stack's security properties."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from moto.events.models import EventPattern

from sitemill.config.model import CONFIG_KEYS, ENV_PREFIX, load_config

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "infra" / "template.yaml"
BUILD_SCRIPT = ROOT / "infra" / "build_lambda_zip.py"
CFN_LINT = Path(sys.executable).parent / "cfn-lint"

PARTITION = "aws"
ACCOUNT = "123456789012"
REGION = "us-east-1"
STACK = "sitemill"
BUCKET = "example-site"
PARAMETERS = {"BucketName": BUCKET, "BaseUrl": "https://example.com/"}
NO_VALUE = object()  # AWS::NoValue: the enclosing list item or key disappears

# Every name sitemill writes (docs/output.md), and pages it must never write.
OWN_OUTPUTS = (
    "sitemap.xml",
    "sitemap.txt",
    "sitemap-1.xml",
    "sitemap-12.xml.gz",
    "sitemap-3.txt",
    "sitemap-4.txt.gz",
    "sitemap-index-2.xml",
)
PAGES = ("index.html", "a/index.htm", "docs/guide.pdf", "sitemap-guide.html", "a/sitemap.html")
# The HTML sitemap (HtmlSitemap): sitemill's own name, written or deleted only when its head
# says sitemill wrote it; its writes trigger (the .html rule) and the function ignores them.
HTML_SITEMAP = "sitemap.html"
# What the last run saw: sitemill's own, read and written, never deleted; no trigger. The
# stack keeps it in a bucket of its own (StateBucket), under "<site bucket>/<prefix>".
STATE = "sitemill-state.json.gz"
STATE_BUCKET = "StateBucket-physical-id"  # the Stack evaluator's Ref of a resource


class _NoRegionLoader:
    """The managed-policy loader SAM asks for; the template names no managed policy."""

    def load(self) -> dict[str, str]:
        return {}


def load_template() -> dict[str, Any]:
    """The template as plain data, with CloudFormation's short tags (!Sub, !If…) expanded."""
    # (cfn-lint and the SAM translator imported here, by the worker that runs these tests: at
    # the top, every pytest-xdist worker imported them to collect the module, 2 s of CPU each.)
    from cfnlint.decode.cfn_yaml import load as load_cfn_yaml

    data: dict[str, Any] = json.loads(json.dumps(load_cfn_yaml(str(TEMPLATE))))
    return data


def translate(template: Mapping[str, Any]) -> dict[str, Any]:
    """The template after the SAM transform, as CloudFormation will see it."""
    from samtranslator.translator.transform import transform

    fragment = json.loads(json.dumps(template))
    # What `sam deploy` / `aws cloudformation package` do: upload the zip (and the state
    # machine's definition), point at it.
    for resource in fragment["Resources"].values():
        if resource["Type"] == "AWS::Serverless::Function":
            resource["Properties"]["CodeUri"] = "s3://artifacts/sitemill-lambda.zip"
        elif resource["Type"] == "AWS::Serverless::StateMachine":
            resource["Properties"]["DefinitionUri"] = "s3://artifacts/rebuild.asl.json"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AWS_DEFAULT_REGION", REGION)  # SAM insists on a region
        result: dict[str, Any] = transform(fragment, {}, _NoRegionLoader())
    return result


@pytest.fixture(scope="module")
def template() -> dict[str, Any]:
    return load_template()


@pytest.fixture(scope="module")
def translated(template: dict[str, Any]) -> dict[str, Any]:
    return translate(template)


# --- a small evaluator of CloudFormation intrinsics, enough for this template ---------------


@dataclass
class Stack:
    """A translated template with parameter values: resolves intrinsics like CloudFormation."""

    template: Mapping[str, Any]
    parameters: Mapping[str, str]

    def value(self, name: str) -> str:
        pseudo = {
            "AWS::Partition": PARTITION,
            "AWS::AccountId": ACCOUNT,
            "AWS::Region": REGION,
            "AWS::StackName": STACK,
        }
        if name in pseudo:
            return pseudo[name]
        if name in self.parameters:
            return self.parameters[name]
        if name in self.template["Parameters"]:
            return str(self.template["Parameters"][name]["Default"])
        return f"{name}-physical-id"  # a resource's Ref

    def condition(self, name: str) -> bool:
        return bool(self.resolve(self.template["Conditions"][name]))

    def resolve(self, node: Any) -> Any:
        """``node`` with every intrinsic function evaluated; AWS::NoValue items removed."""
        if isinstance(node, list):
            items = [self.resolve(item) for item in node]
            return [item for item in items if item is not NO_VALUE]
        if not isinstance(node, dict):
            return node
        if len(node) == 1:
            ((key, arg),) = node.items()
            if key == "Ref":
                return NO_VALUE if arg == "AWS::NoValue" else self.value(arg)
            if key == "Fn::Sub":
                return re.sub(r"\$\{([^}]+)\}", lambda m: self._sub(m.group(1)), arg)
            if key == "Fn::GetAtt":
                logical, attribute = arg if isinstance(arg, list) else arg.split(".", 1)
                return f"arn:{PARTITION}:test:{REGION}:{ACCOUNT}:{logical}.{attribute}"
            if key == "Fn::If":
                name, yes, no = arg
                return self.resolve(yes if self.condition(name) else no)
            if key == "Fn::Equals":
                left, right = (self.resolve(item) for item in arg)
                return str(left) == str(right)
            if key == "Fn::Not":
                return not self.resolve(arg[0])
            if key == "Fn::And":
                return all(self.resolve(item) for item in arg)
            if key == "Fn::Or":
                return any(self.resolve(item) for item in arg)
            if key == "Condition":
                return self.condition(arg)
            if key == "Fn::FindInMap":
                mapping, top, second = (self.resolve(item) for item in arg)
                return self.template["Mappings"][mapping][str(top)][second]
        resolved = {key: self.resolve(value) for key, value in node.items()}
        return {key: value for key, value in resolved.items() if value is not NO_VALUE}

    def _sub(self, name: str) -> str:
        if "." in name:
            return str(self.resolve({"Fn::GetAtt": name}))
        return self.value(name)

    def resources(self) -> dict[str, Any]:
        """The resources that exist for these parameters, resolved."""
        return {
            name: self.resolve(resource)
            for name, resource in self.template["Resources"].items()
            if "Condition" not in resource or self.condition(resource["Condition"])
        }

    def role_statements(self, role: str | None = "FunctionRole") -> list[dict[str, Any]]:
        """Every statement of the IAM identity policies of ``role`` (by default the router's,
        FunctionRole), or with None of every role and policy in the stack."""
        statements = []
        for name, resource in self.resources().items():
            if role is not None and name != role:
                continue
            kind, properties = resource["Type"], resource.get("Properties", {})
            if kind == "AWS::IAM::Role":
                assert not properties.get("ManagedPolicyArns"), "managed policies use '*'"
                for policy in properties.get("Policies", []):
                    statements += _listed(policy["PolicyDocument"]["Statement"])
            elif kind in ("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy"):
                statements += _listed(properties["PolicyDocument"]["Statement"])
        return statements


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def iam_matches(pattern: str, value: str) -> bool:
    """IAM's ARN matching: '*' is any run of characters, '?' one character."""
    regex = "".join(
        ".*" if char == "*" else "." if char == "?" else re.escape(char) for char in pattern
    )
    return re.fullmatch(regex, value) is not None


def allowed(statements: list[dict[str, Any]], action: str, resource: str) -> bool:
    """Whether some Allow statement grants ``action`` on ``resource`` (conditions aside)."""
    return any(
        statement["Effect"] == "Allow"
        and action in _listed(statement["Action"])
        and any(iam_matches(pattern, resource) for pattern in _listed(statement["Resource"]))
        for statement in statements
    )


def object_arn(key: str) -> str:
    return f"arn:{PARTITION}:s3:::{BUCKET}/{key}"


def state_arn(key: str) -> str:
    return f"arn:{PARTITION}:s3:::{STATE_BUCKET}/{key}"


MODES = {
    "created bucket": {"CreateBucket": "true"},
    "existing bucket": {"CreateBucket": "false"},
}
VARIANTS = [
    pytest.param({}, id="defaults"),
    pytest.param({"SourcePrefix": "site/"}, id="prefix"),
    pytest.param({"RobotsTxt": "true"}, id="robots"),
    pytest.param(
        {"SourcePrefix": "site/", "RobotsTxt": "true", "CloudFrontDistributionId": "E2ABC123"},
        id="everything",
    ),
    pytest.param({"Shards": "off"}, id="shards-off"),
]


def make_stack(translated: Mapping[str, Any], *overrides: Mapping[str, str]) -> Stack:
    parameters = dict(PARAMETERS)
    for override in overrides:
        parameters.update(override)
    return Stack(translated, parameters)


def statements_with(statements: list[dict[str, Any]], prefix: str) -> Iterator[dict[str, Any]]:
    return (s for s in statements if any(a.startswith(prefix) for a in _listed(s["Action"])))


# --- lint and transform ------------------------------------------------------------------


def test_cfn_lint_passes_with_nothing_silenced(template: dict[str, Any]) -> None:
    completed = subprocess.run(
        [str(CFN_LINT), "--", str(TEMPLATE)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.strip() == ""
    # A rule may only be ignored with a written reason: there is none today, so none is.
    assert template["Metadata"]["cfn-lint"]["config"]["ignore_checks"] == []
    for name, resource in template["Resources"].items():
        assert "cfn-lint" not in resource.get("Metadata", {}), name


def test_sam_transform_gives_plain_cloudformation(translated: dict[str, Any]) -> None:
    kinds = {resource["Type"] for resource in translated["Resources"].values()}
    assert not any(kind.startswith("AWS::Serverless::") for kind in kinds)
    assert "AWS::Lambda::EventSourceMapping" in kinds


# --- the function and its queue ----------------------------------------------------------


def test_function_matches_the_zip(template: dict[str, Any], translated: dict[str, Any]) -> None:
    source = template["Resources"]["SitemillFunction"]["Properties"]
    assert source["CodeUri"] == "../dist/sitemill-lambda.zip"
    assert (TEMPLATE.parent / source["CodeUri"]).resolve() == ROOT / "dist" / "sitemill-lambda.zip"
    function = translated["Resources"]["SitemillFunction"]["Properties"]
    script = BUILD_SCRIPT.read_text()
    python = re.search(r'PYTHON_VERSION: Final = "([0-9.]+)"', script)
    platform = re.search(r'PLATFORM: Final = "([a-z0-9_]+)"', script)
    assert python and platform
    assert function["Runtime"] == f"python{python.group(1)}"
    assert function["Runtime"] in ("python3.12", "python3.13")
    assert function["Architectures"] == ["arm64"]
    assert platform.group(1).endswith("_aarch64")
    assert function["Handler"] == "handler.handler"
    assert function["MemorySize"] == {"Ref": "MemorySize"}
    assert function["Timeout"] == {"Ref": "FunctionTimeout"}


def test_single_writer(translated: dict[str, Any]) -> None:
    function = translated["Resources"]["SitemillFunction"]["Properties"]
    assert function["ReservedConcurrentExecutions"] == 1


def test_function_environment_covers_the_lambda_settings(translated: dict[str, Any]) -> None:
    variables = translated["Resources"]["SitemillFunction"]["Properties"]["Environment"]
    assert {
        "SITEMILL_BASE_URL",
        "SITEMILL_BUCKET",
        "SITEMILL_PREFIX",
        "SITEMILL_GZIP",
        "SITEMILL_FORMAT",
        "SITEMILL_URL_STYLE",
        "SITEMILL_LASTMOD",
        "SITEMILL_ROBOTS_TXT",
        "SITEMILL_INCLUDE",
        "SITEMILL_EXCLUDE",
        "SITEMILL_CACHE_CONTROL",
        "SITEMILL_CLOUDFRONT_DISTRIBUTION_ID",
        "SITEMILL_LOG_LEVEL",
    } <= set(variables["Variables"])


def test_every_parameter_value_is_one_sitemill_accepts(translated: dict[str, Any]) -> None:
    variables = translated["Resources"]["SitemillFunction"]["Properties"]["Environment"]
    parameters = translated["Parameters"]
    checked = 0
    for variable, value in variables["Variables"].items():
        key = variable.removeprefix(ENV_PREFIX).lower()
        if key not in CONFIG_KEYS or key == "base_url" or "Ref" not in value:
            continue  # SITEMILL_STATE is built by the stack: see test_the_state_lives_apart
        parameter = parameters[value["Ref"]]
        for candidate in parameter.get("AllowedValues", [parameter["Default"]]):
            # (A key: the stack's Rules refuse IndexNow=send or IndexNowWriteKeyFile=true
            # without one, test_infra_indexnow.)
            env = {
                "SITEMILL_BASE_URL": "https://example.com/",
                "SITEMILL_INDEXNOW_KEY": "0123-abcd-EFGH",
                variable: str(candidate),
            }
            load_config({}, env)  # raises ConfigError for a value sitemill rejects
            checked += 1
    assert checked >= 10


def test_event_source_mapping_batches_and_reports_failures(translated: dict[str, Any]) -> None:
    (mapping,) = (
        resource["Properties"]
        for resource in translated["Resources"].values()
        if resource["Type"] == "AWS::Lambda::EventSourceMapping"
    )
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": ["Queue", "Arn"]}
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    parameters = translated["Parameters"]
    window = parameters[mapping["MaximumBatchingWindowInSeconds"]["Ref"]]
    assert window["MinValue"] > 0
    assert window["Default"] > 0
    batch = parameters[mapping["BatchSize"]["Ref"]]
    assert 1 < batch["Default"] <= batch["MaxValue"] <= 10_000


def test_dead_letter_queue_is_wired(translated: dict[str, Any]) -> None:
    queue = translated["Resources"]["Queue"]["Properties"]
    redrive = queue["RedrivePolicy"]
    assert redrive["deadLetterTargetArn"] == {"Fn::GetAtt": ["DeadLetterQueue", "Arn"]}
    assert redrive["maxReceiveCount"] >= 5
    assert translated["Resources"]["DeadLetterQueue"]["Type"] == "AWS::SQS::Queue"


def test_visibility_timeout_is_six_times_the_function_timeout(translated: dict[str, Any]) -> None:
    timeout = translated["Parameters"]["FunctionTimeout"]
    window = translated["Parameters"]["MaximumBatchingWindowInSeconds"]
    assert timeout["Default"] in timeout["AllowedValues"]
    for seconds in timeout["AllowedValues"]:
        stack = make_stack(translated, {"FunctionTimeout": str(seconds)})
        queue = stack.resources()["Queue"]["Properties"]
        assert queue["VisibilityTimeout"] >= 6 * int(seconds) + window["MaxValue"], seconds
        assert queue["VisibilityTimeout"] <= 43_200  # SQS's maximum


def test_outputs_name_the_function_and_the_queue(translated: dict[str, Any]) -> None:
    outputs = translated["Outputs"]
    assert outputs["FunctionName"]["Value"] == {"Ref": "SitemillFunction"}
    assert outputs["QueueUrl"]["Value"] == {"Ref": "Queue"}


@pytest.mark.parametrize(
    ("prefix", "ok"),
    [
        ("", True),
        ("site/", True),
        ("a/b c/", True),
        ("site", False),
        ("/site/", False),
        ("si*te/", False),
        ("si?te/", False),
        ("${aws:username}/", False),
    ],
)
def test_source_prefix_cannot_widen_iam_resources(
    template: dict[str, Any], prefix: str, ok: bool
) -> None:
    pattern = template["Parameters"]["SourcePrefix"]["AllowedPattern"]
    assert (re.fullmatch(pattern, prefix) is not None) is ok


# --- IAM: least privilege ----------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("variant", VARIANTS)
def test_no_wildcard_actions_or_resources(
    translated: dict[str, Any], mode: dict[str, str], variant: dict[str, str]
) -> None:
    assert_no_wildcards(make_stack(translated, mode, variant).role_statements(None))


def assert_no_wildcards(statements: list[dict[str, Any]]) -> None:
    """No statement of ``statements`` (every role's) allows a wildcard action, or a resource
    wider than sitemill's own keys."""
    assert statements
    for statement in statements:
        assert statement["Effect"] == "Allow"
        assert "NotAction" not in statement and "NotResource" not in statement
        for action in _listed(statement["Action"]):
            assert "*" not in action and "?" not in action, action
        for resource in _listed(statement["Resource"]):
            assert resource != "*", statement
            if resource.startswith(f"arn:{PARTITION}:s3:::"):
                # Only a child number may be a wildcard, or (to read, never to write) the
                # name of an HTML page, never a whole key or bucket.
                if re.fullmatch(r"[^*?]*/\*\.html?", resource):
                    assert _listed(statement["Action"]) == ["s3:GetObject"], statement
                    continue
                # The partitioned state: the keys under sitemill-state/ of the stack's own
                # state bucket (docs/s3-lambda.md), nothing else of it; a distributed rebuild's
                # run files are among them (sitemill-state/runs/).
                if re.fullmatch(r"[^*?]*/sitemill-state/((shards|runs)/)?\*", resource):
                    assert ":::StateBucket" in resource, resource
                    continue
                # The site bucket's S3 Inventory reports in the state bucket: read only.
                if re.fullmatch(r"[^*?]*/inventory/[^*?/]+/sitemill/\*", resource):
                    assert ":::StateBucket" in resource, resource
                    assert _listed(statement["Action"]) == ["s3:GetObject"], statement
                    continue
                assert re.fullmatch(r"[^*?]*(sitemap-\*\.[a-z.]+)?", resource), resource


@pytest.mark.parametrize("variant", VARIANTS)
def test_s3_writes_only_sitemills_own_keys(
    translated: dict[str, Any], variant: dict[str, str]
) -> None:
    stack = make_stack(translated, variant)
    statements = stack.role_statements()
    prefix = stack.value("SourcePrefix")
    robots = stack.value("RobotsTxt") == "true"
    for action in ("s3:PutObject", "s3:DeleteObject"):
        for name in OWN_OUTPUTS:
            assert allowed(statements, action, object_arn(prefix + name)), (action, name)
        for page in PAGES:
            assert not allowed(statements, action, object_arn(prefix + page)), (action, page)
        for elsewhere in ("other/sitemap.xml", f"{prefix}a/sitemap.xml", "sitemap.xml.bak"):
            assert not allowed(statements, action, object_arn(elsewhere)), (action, elsewhere)
    for action in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject"):
        assert allowed(statements, action, object_arn(prefix + HTML_SITEMAP)), action
        for elsewhere in (f"{prefix}a/{HTML_SITEMAP}", f"{prefix}{HTML_SITEMAP}.bak"):
            assert action == "s3:GetObject" or not allowed(
                statements, action, object_arn(elsewhere)
            ), (action, elsewhere)
    assert allowed(statements, "s3:PutObject", object_arn(prefix + "robots.txt")) is robots
    assert not allowed(statements, "s3:DeleteObject", object_arn(prefix + "robots.txt"))
    # The state lives in the stack's own bucket: never written in the site bucket (a deploy's
    # `aws s3 sync --delete` cannot erase it there), written and never deleted in its own.
    for key in (prefix + STATE, STATE):
        for action in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject"):
            assert not allowed(statements, action, object_arn(key)), (action, key)
    state_key = f"{BUCKET}/{prefix}{STATE}"
    assert allowed(statements, "s3:PutObject", state_arn(state_key))
    assert not allowed(statements, "s3:DeleteObject", state_arn(state_key))
    # The partitioned state: its objects written; only a shard's state ever deleted.
    parts = f"{BUCKET}/{prefix}sitemill-state/"
    for name in ("plan.json", "index-state.json", "shards/rabcdefgh.json.gz"):
        assert allowed(statements, "s3:PutObject", state_arn(parts + name)), name
        deletable = name.startswith("shards/")
        assert allowed(statements, "s3:DeleteObject", state_arn(parts + name)) is deletable
    for elsewhere in (
        STATE,
        f"{BUCKET}/{prefix}a/{STATE}",
        f"other-site/{prefix}{STATE}",
        f"{state_key}.bak",
        f"{BUCKET}/{prefix}index.html",
    ):
        for action in ("s3:GetObject", "s3:PutObject", "s3:DeleteObject"):
            assert not allowed(statements, action, state_arn(elsewhere)), (action, elsewhere)
    # Every other write-like S3 action is absent.
    s3_actions = {a for s in statements_with(statements, "s3:") for a in _listed(s["Action"])}
    assert s3_actions <= {"s3:ListBucket", "s3:GetObject", "s3:PutObject", "s3:DeleteObject"}


@pytest.mark.parametrize("variant", VARIANTS)
def test_s3_reads_robots_txt_html_heads_the_state_and_own_outputs_and_lists_the_site_only(
    translated: dict[str, Any], variant: dict[str, str]
) -> None:
    stack = make_stack(translated, variant)
    statements = stack.role_statements()
    prefix = stack.value("SourcePrefix")
    reads = {statement["Sid"]: statement for statement in statements_with(statements, "s3:Get")}
    assert set(reads) == {
        "ReadRobotsTxt",
        "ReadPageHeads",
        "ReadWriteState",
        "ReadOwnOutputs",
        "ReadDeleteLlmsFiles",
    }
    for statement in reads.values():
        assert "Condition" not in statement
    assert _listed(reads["ReadRobotsTxt"]["Action"]) == ["s3:GetObject"]
    assert _listed(reads["ReadRobotsTxt"]["Resource"]) == [object_arn(prefix + "robots.txt")]
    # Head facts: a ranged GET of HTML pages under the prefix, at any depth (IAM's "*"
    # spans "/"), and of nothing else there.
    assert _listed(reads["ReadPageHeads"]["Action"]) == ["s3:GetObject"]
    assert _listed(reads["ReadPageHeads"]["Resource"]) == [
        object_arn(prefix + "*.html"),
        object_arn(prefix + "*.htm"),
    ]
    for page in ("index.html", "a/b/c/index.htm", "sitemap.html", "a b/é+%.html"):
        assert allowed(statements, "s3:GetObject", object_arn(prefix + page)), page
    for key in ("docs/guide.pdf", "style.css", "img/a.png", "a.html.bak", ".env", "data.json"):
        assert not allowed(statements, "s3:GetObject", object_arn(prefix + key)), key
    if prefix:
        assert not allowed(statements, "s3:GetObject", object_arn("elsewhere/index.html"))
    assert not allowed(statements, "s3:GetObject", object_arn(STATE))
    assert not allowed(statements, "s3:GetObject", object_arn(prefix + STATE))
    # The state: read at the start, written after the sitemaps; exactly its one key and the
    # partitioned state's keys beside it (sitemill-state/...), in the stack's state bucket.
    assert sorted(_listed(reads["ReadWriteState"]["Action"])) == ["s3:GetObject", "s3:PutObject"]
    state_key = f"{BUCKET}/{prefix}{STATE}"
    parts = f"{BUCKET}/{prefix}sitemill-state/*"
    assert _listed(reads["ReadWriteState"]["Resource"]) == [state_arn(state_key), state_arn(parts)]
    # The live index is read again before stale children go: exactly the keys sitemill writes.
    (write,) = (s for s in statements if s.get("Sid") == "WriteOwnOutputs")
    assert _listed(reads["ReadOwnOutputs"]["Action"]) == ["s3:GetObject"]
    assert reads["ReadOwnOutputs"]["Resource"] == write["Resource"]
    for name in OWN_OUTPUTS:
        assert allowed(statements, "s3:GetObject", object_arn(prefix + name)), name
    for key in ("sitemap.xml.bak", "a/sitemap.xml.gz", "other/sitemap.xml", "sitemap-1.json"):
        assert not allowed(statements, "s3:GetObject", object_arn(prefix + key)), key
    if prefix:
        assert not allowed(statements, "s3:GetObject", object_arn("sitemap.xml"))
    lists = {statement["Sid"]: statement for statement in statements_with(statements, "s3:List")}
    assert set(lists) == {"ListSite", "ListState"}
    listing = lists["ListSite"]
    assert _listed(listing["Action"]) == ["s3:ListBucket"]
    assert listing["Resource"] == f"arn:{PARTITION}:s3:::{BUCKET}"
    if prefix:
        assert listing["Condition"] == {"StringLike": {"s3:prefix": f"{prefix}*"}}
    else:
        assert "Condition" not in listing
    # The state bucket: one LIST of exactly a state key (a first run's 403 told apart from
    # a denial), never a listing of other sites' keys.
    listing = lists["ListState"]
    assert _listed(listing["Action"]) == ["s3:ListBucket"]
    assert listing["Resource"] == f"arn:{PARTITION}:s3:::{STATE_BUCKET}"
    assert listing["Condition"] == {"StringLike": {"s3:prefix": [state_key, parts]}}


@pytest.mark.parametrize("distribution", ["", "E2ABC123"])
def test_cloudfront_only_for_a_given_distribution(
    translated: dict[str, Any], distribution: str
) -> None:
    stack = make_stack(translated, {"CloudFrontDistributionId": distribution})
    found = list(statements_with(stack.role_statements(), "cloudfront:"))
    if not distribution:
        assert found == []
        return
    (statement,) = found
    assert statement["Action"] == "cloudfront:CreateInvalidation"
    assert statement["Resource"] == (
        f"arn:{PARTITION}:cloudfront::{ACCOUNT}:distribution/{distribution}"
    )


def test_logs_and_queue_are_scoped_to_this_stack(translated: dict[str, Any]) -> None:
    statements = make_stack(translated).role_statements()
    (logs,) = statements_with(statements, "logs:")
    assert logs["Resource"].endswith(":LogGroup.Arn")
    assert set(logs["Action"]) == {"logs:CreateLogStream", "logs:PutLogEvents"}
    (sqs,) = statements_with(statements, "sqs:")
    assert sqs["Resource"].endswith(":Queue.Arn")
    function = translated["Resources"]["SitemillFunction"]["Properties"]
    assert function["LoggingConfig"]["LogGroup"] == {"Ref": "LogGroup"}


# --- who may send to the queue, and which changes do ------------------------------------


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
def test_queue_policy_admits_only_the_site_bucket_or_the_rule(
    translated: dict[str, Any], mode: dict[str, str]
) -> None:
    stack = make_stack(translated, mode)
    resources = stack.resources()
    (statement,) = resources["QueuePolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert statement["Action"] == "sqs:SendMessage"
    assert statement["Resource"].endswith(":Queue.Arn")
    if mode["CreateBucket"] == "true":
        assert statement["Principal"] == {"Service": "s3.amazonaws.com"}
        assert statement["Condition"]["ArnEquals"] == {
            "aws:SourceArn": f"arn:{PARTITION}:s3:::{BUCKET}"
        }
        assert statement["Condition"]["StringEquals"] == {"aws:SourceAccount": ACCOUNT}
        assert "SiteBucket" in resources and "ObjectEventsRule" not in resources
    else:
        assert statement["Principal"] == {"Service": "events.amazonaws.com"}
        assert statement["Condition"] == {"ArnEquals": {"aws:SourceArn": stack_rule_arn()}}
        assert "ObjectEventsRule" in resources and "SiteBucket" not in resources


def stack_rule_arn() -> str:
    return f"arn:{PARTITION}:test:{REGION}:{ACCOUNT}:ObjectEventsRule.Arn"


def references(node: Any) -> set[str]:
    """Names that ``node`` refers to through Ref, GetAtt or ${} in Sub."""
    if isinstance(node, list):
        return set().union(*(references(item) for item in node))
    if not isinstance(node, dict):
        return set()
    found = set().union(*(references(value) for value in node.values()))
    if "Ref" in node:
        found.add(node["Ref"])
    if "Fn::GetAtt" in node:
        target = node["Fn::GetAtt"]
        found.add(target[0] if isinstance(target, list) else target.split(".")[0])
    if "Fn::Sub" in node and isinstance(node["Fn::Sub"], str):
        found |= {name.split(".")[0] for name in re.findall(r"\$\{([^}]+)\}", node["Fn::Sub"])}
    return found


def test_created_bucket_does_not_reference_its_queue_policy_back(template: dict[str, Any]) -> None:
    # The cycle to avoid: bucket -> (DependsOn) queue policy -> bucket ARN. The policy builds
    # the ARN from the BucketName parameter instead.
    resources = template["Resources"]
    assert resources["SiteBucket"]["DependsOn"] == "QueuePolicy"
    assert "SiteBucket" not in references(resources["QueuePolicy"])
    assert "SiteBucket" not in references(resources["Queue"])
    assert "BucketName" in references(resources["QueuePolicy"])


def s3_filter_matches(rules: list[dict[str, str]], key: str) -> bool:
    """S3's key filter: the key starts with the prefix rule and ends with the suffix rule."""
    values = {rule["Name"]: rule["Value"] for rule in rules}
    return key.startswith(values.get("prefix", "")) and key.endswith(values.get("suffix", ""))


def queue_configurations(translated: dict[str, Any], prefix: str) -> list[dict[str, Any]]:
    stack = make_stack(translated, MODES["created bucket"], {"SourcePrefix": prefix})
    bucket = stack.resources()["SiteBucket"]["Properties"]
    configurations: list[dict[str, Any]] = bucket["NotificationConfiguration"][
        "QueueConfigurations"
    ]
    return configurations


@pytest.mark.parametrize("prefix", ["", "site/"])
def test_bucket_notifications_deliver_pages_and_sitemaps_written_or_deleted(
    translated: dict[str, Any], prefix: str
) -> None:
    configurations = queue_configurations(translated, prefix)

    def triggers(event: str, key: str) -> bool:
        return any(
            c["Event"] == event and s3_filter_matches(c["Filter"]["S3Key"]["Rules"], key)
            for c in configurations
        )

    for config in configurations:
        assert config["Queue"].endswith(":Queue.Arn")
        names = [rule["Name"] for rule in config["Filter"]["S3Key"]["Rules"]]
        assert sorted(names) in (["suffix"], ["prefix", "suffix"])  # S3: one of each at most
    created, removed = "s3:ObjectCreated:*", "s3:ObjectRemoved:*"
    for event in (created, removed):
        for page in (*PAGES, "robots.txt"):
            assert triggers(event, prefix + page), (event, page)
        for other in ("style.css", "img/logo.png", "a/robots.txt", "robots.txt.bak"):
            assert not triggers(event, prefix + other), (event, other)
        if prefix:
            assert not triggers(event, "elsewhere/index.html")
            assert not triggers(event, "sitemap.xml")
    for name in OWN_OUTPUTS:
        # Writing a sitemap is delivered (a sync may put another sitemap.xml over sitemill's:
        # the function compares its digest), and so is removing one (`aws s3 sync --delete`).
        assert triggers(created, prefix + name), name
        assert triggers(removed, prefix + name), name
    # The state matches no rule: removing it changes no sitemap.
    assert not triggers(created, prefix + STATE)
    assert not triggers(removed, prefix + STATE)


def _overlap(a: str, b: str, *, ends: bool) -> bool:
    """Whether two prefix (or, with ``ends``, suffix) rules can match one key ('' matches all)."""
    if ends:
        return a.endswith(b) or b.endswith(a)
    return a.startswith(b) or b.startswith(a)


def _events_overlap(a: str, b: str) -> bool:
    """s3:ObjectRemoved:* covers s3:ObjectRemoved:Delete; different families never meet."""
    return a == b or a.startswith(b.rstrip("*")) or b.startswith(a.rstrip("*"))


@pytest.mark.parametrize("prefix", ["", "site/", "sitemap/"])
def test_bucket_notifications_do_not_overlap(translated: dict[str, Any], prefix: str) -> None:
    # S3 refuses the whole configuration ("Configurations overlap") when two rules share an
    # event type and both their prefixes and their suffixes overlap.
    # https://docs.aws.amazon.com/AmazonS3/latest/userguide/notification-how-to-filtering.html
    configurations = queue_configurations(translated, prefix)
    filters = []
    for config in configurations:
        rules = {rule["Name"]: rule["Value"] for rule in config["Filter"]["S3Key"]["Rules"]}
        filters.append((config["Event"], rules.get("prefix", ""), rules.get("suffix", "")))
    assert len(filters) == len(set(filters))
    for number, (event, start, end) in enumerate(filters):
        for other_event, other_start, other_end in filters[number + 1 :]:
            clash = (
                _events_overlap(event, other_event)
                and _overlap(start, other_start, ends=False)
                and _overlap(end, other_end, ends=True)
            )
            assert not clash, ((event, start, end), (other_event, other_start, other_end))


def s3_event(detail_type: str, key: str, bucket: str = BUCKET) -> dict[str, Any]:
    """An EventBridge S3 event as the rule sees it (see tests/events/eventbridge_*.json)."""
    return {
        "version": "0",
        "detail-type": detail_type,
        "source": "aws.s3",
        "account": ACCOUNT,
        "region": REGION,
        "resources": [f"arn:{PARTITION}:s3:::{bucket}"],
        "detail": {"version": "0", "bucket": {"name": bucket}, "object": {"key": key}},
    }


@pytest.mark.parametrize("prefix", ["", "site/"])
def test_eventbridge_rule_delivers_pages_and_sitemaps_written_or_deleted(
    translated: dict[str, Any], prefix: str
) -> None:
    stack = make_stack(translated, MODES["existing bucket"], {"SourcePrefix": prefix})
    rule = stack.resources()["ObjectEventsRule"]["Properties"]
    # moto's implementation of EventBridge's matching ($or, anything-but, prefix, suffix).
    pattern = EventPattern.load(json.dumps(rule["EventPattern"]))

    def delivers(detail_type: str, key: str, bucket: str = BUCKET) -> bool:
        return pattern.matches_event(s3_event(detail_type, key, bucket))

    created, deleted = "Object Created", "Object Deleted"
    for detail_type in (created, deleted):
        for page in (*PAGES, "robots.txt", "style.css"):
            assert delivers(detail_type, prefix + page), (detail_type, page)
            assert not delivers(detail_type, prefix + page, "other-bucket"), (detail_type, page)
        assert not delivers("Object Restore Completed", prefix + "index.html")
    for name in OWN_OUTPUTS:
        # Writing or removing a sitemap is delivered (the function tells whose it is).
        assert delivers(created, prefix + name), name
        assert delivers(deleted, prefix + name), name
        assert not delivers(created, prefix + name, "other-bucket"), name
        assert not delivers(deleted, prefix + name, "other-bucket"), name
    # Writing the state must never trigger a rebuild; removing it changes no sitemap.
    assert not delivers(created, prefix + STATE)
    assert not delivers(deleted, prefix + STATE)
    # Root keys starting "sitem" that are pages still are (the suffix matchers).
    for page in ("sitemill.html", "sitemill-guide.htm", "sitemaps.pdf"):
        assert delivers(created, prefix + page), page
    (target,) = rule["Targets"]
    assert target["Arn"].endswith(":Queue.Arn")


EVENTS = ROOT / "tests" / "events"


@pytest.mark.parametrize(
    ("name", "delivered"),
    [
        ("eventbridge_created.json", True),
        ("eventbridge_deleted.json", True),
        ("eventbridge_sitemap_deleted.json", True),
        ("eventbridge_sitemap_created.json", True),  # compared with what sitemill published
        ("eventbridge_state_created.json", False),  # sitemill's own write of the state
        ("eventbridge_state_deleted.json", False),
    ],
)
def test_eventbridge_rule_on_the_recorded_events(
    translated: dict[str, Any], name: str, delivered: bool
) -> None:
    body = json.loads((EVENTS / name).read_text(encoding="utf-8"))
    bucket = body["detail"]["bucket"]["name"]
    stack = make_stack(translated, MODES["existing bucket"], {"BucketName": bucket})
    rule = stack.resources()["ObjectEventsRule"]["Properties"]
    assert EventPattern.load(json.dumps(rule["EventPattern"])).matches_event(body) is delivered


# --- the state bucket ------------------------------------------------------------------


@pytest.mark.parametrize("mode", MODES.values(), ids=MODES.keys())
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_state_lives_apart_in_a_private_bucket_the_stack_keeps(
    translated: dict[str, Any], mode: dict[str, str], variant: dict[str, str]
) -> None:
    stack = make_stack(translated, mode, variant)
    resources = stack.resources()
    bucket = resources["StateBucket"]
    assert bucket["Type"] == "AWS::S3::Bucket"
    assert "Condition" not in translated["Resources"]["StateBucket"]  # both modes
    # Deleting or replacing the stack keeps the dates.
    assert (bucket["DeletionPolicy"], bucket["UpdateReplacePolicy"]) == ("Retain", "Retain")
    properties = bucket["Properties"]
    assert properties["PublicAccessBlockConfiguration"] == {
        "BlockPublicAcls": True,
        "BlockPublicPolicy": True,
        "IgnorePublicAcls": True,
        "RestrictPublicBuckets": True,
    }
    assert properties["BucketEncryption"] == {
        "ServerSideEncryptionConfiguration": [
            {"ServerSideEncryptionByDefault": {"SSEAlgorithm": "AES256"}}
        ]
    }
    assert properties["OwnershipControls"] == {
        "Rules": [{"ObjectOwnership": "BucketOwnerEnforced"}]
    }
    # Its writes trigger nothing; the name is CloudFormation's (no clash between stacks).
    assert "NotificationConfiguration" not in properties
    assert "BucketName" not in properties
    (deny,) = resources["StateBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"]
    assert resources["StateBucketPolicy"]["Properties"]["Bucket"] == STATE_BUCKET
    assert (deny["Effect"], deny["Principal"], deny["Action"]) == ("Deny", "*", "s3:*")
    assert deny["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
    bucket_arn = f"arn:{PARTITION}:test:{REGION}:{ACCOUNT}:StateBucket.Arn"
    assert deny["Resource"] == [bucket_arn, f"{bucket_arn}/*"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_function_is_told_the_key_its_role_may_read_and_write(
    translated: dict[str, Any], variant: dict[str, str]
) -> None:
    from sitemill.state.s3 import parse_s3_location

    stack = make_stack(translated, variant)
    function = stack.resources()["SitemillFunction"]["Properties"]
    location = function["Environment"]["Variables"]["SITEMILL_STATE"]
    prefix = stack.value("SourcePrefix")
    assert location == f"s3://{STATE_BUCKET}/{BUCKET}/{prefix}{STATE}"
    # CloudFormation names the bucket in lower case (stack name, logical id, a suffix).
    real = location.replace(STATE_BUCKET, "sitemill-statebucket-1x2y3z4w5v6u")
    bucket, key = parse_s3_location(real)
    assert (bucket, key) == ("sitemill-statebucket-1x2y3z4w5v6u", f"{BUCKET}/{prefix}{STATE}")
    env = {"SITEMILL_BASE_URL": "https://example.com/", "SITEMILL_STATE": real}
    assert load_config({}, env).state == real
    statements = stack.role_statements()
    for action in ("s3:GetObject", "s3:PutObject"):
        assert allowed(statements, action, state_arn(key)), action
    outputs = translated["Outputs"]["StateLocation"]["Value"]
    if stack.value("Shards") == "off":
        assert stack.resolve(outputs) == location
    else:  # partitioned under the location's prefix: its manifest commits a run
        assert stack.resolve(outputs) == location.removesuffix(".json.gz") + "/index-state.json"


def test_content_date_parameters_reach_the_function(translated: dict[str, Any]) -> None:
    variables = translated["Resources"]["SitemillFunction"]["Properties"]["Environment"]
    assert variables["Variables"]["SITEMILL_CONTENT_DATES"] == {"Ref": "ContentDates"}
    assert variables["Variables"]["SITEMILL_FINGERPRINT_IGNORE"] == {"Ref": "FingerprintIgnore"}
    assert translated["Parameters"]["ContentDates"]["Default"] == "true"
    env = {
        "SITEMILL_BASE_URL": "https://example.com/",
        "SITEMILL_FINGERPRINT_IGNORE": "Last updated on [^<]*",
    }
    assert [p.pattern for p in load_config({}, env).fingerprint_ignore] == ["Last updated on [^<]*"]
