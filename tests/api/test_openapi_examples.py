"""The OpenAPI document is a valid OpenAPI 3 document, and every example it shows
(components and request bodies) is valid against its own schema."""

import copy

from openapi_spec_validator import validate

from ..spec_check import SPEC, validator


def test_the_document_is_valid_openapi():
    validate(copy.deepcopy(SPEC))


def test_every_component_example_fits_its_schema():
    wrong = {}
    for name, schema in SPEC["components"]["schemas"].items():
        if "example" in schema:
            check = validator({"$ref": f"#/components/schemas/{name}"})
            errors = [e.message for e in check.iter_errors(schema["example"])]
            if errors:
                wrong[name] = errors[:3]
    assert not wrong, wrong


def test_every_request_example_fits_its_body():
    wrong = {}
    for path, operations in SPEC["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":  # the path's own, not an operation
                continue
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if not body:
                continue
            check = validator(body["schema"])
            for name, example in body.get("examples", {}).items():
                errors = [e.message for e in check.iter_errors(example["value"])]
                if errors:
                    wrong[f"{method} {path} {name}"] = errors[:3]
    assert not wrong, wrong
