#!/usr/bin/env python3
"""Writes the bad-scenario suite: tests/data/bad_scenarios/*.json and expected.tsv.

Each file is tests/data/bad_scenarios_base.json (a valid version-2 scenario with every joint type,
every limit switched on, plots and a saved run state) damaged in ONE specific way. expected.tsv
holds, per file, the fragments its error message must contain: the field path and the problem
("bodies[1].mass: must be > 0, got -2"), or, for text that is not JSON at all, the location and
the problem. The test BadScenarios.* (tests/engine/bad_scenarios_test.cpp) loads every file and
checks it is refused with those fragments, in one line, leaving the output scene unchanged.

Run it after changing the format or the messages, then review `git diff tests/data`:

    python3 tests/data/generate_bad_scenarios.py

It is deterministic (no time, fixed random seeds); the output is committed.
"""

import copy
import json
import os
import random
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "bad_scenarios")
BASE_PATH = os.path.join(HERE, "bad_scenarios_base.json")

INF = "inf"


# [SECTION] The valid base scene

def body(name, **kw):
    b = {"name": name}
    b.update(kw)
    return b


def joint(type_, name, b0, b1, params=None, **kw):
    j = {"type": type_, "name": name, "body0": b0, "body1": b1}
    j.update(kw)
    if params is not None:
        j["params"] = params
    return j


def limit(lower, upper):
    return {"enabled": True, "lower": lower, "upper": upper, "contactDistance": 0.05}


def base_scene():
    bodies = [
        body("base", motion="static", shape="box", halfExtents=[1.0, 0.1, 1.0], position=[0.0, 0.1, 0.0]),
        body("arm", shape="capsule", radius=0.1, halfHeight=0.4, mass=2.0, position=[0.0, 2.0, 0.0],
             orientation=[1.0, 0.0, 0.0, 0.0], linearVelocity=[0.0, 0.0, 0.5], angularVelocity=[0.0, 0.1, 0.0],
             linearDamping=0.1, angularDamping=0.1),
        body("ball", shape="sphere", radius=0.2, massMode="density", density=500.0, position=[1.0, 2.0, 0.0]),
        body("slider", shape="box", halfExtents=[0.2, 0.1, 0.1], mass=1.0, position=[-1.0, 1.0, 0.0]),
        body("wheel", shape="sphere", radius=0.3, mass=3.0, position=[2.0, 1.0, 0.0]),
        body("rack", shape="box", halfExtents=[0.5, 0.05, 0.05], mass=1.0, position=[2.0, 0.5, 0.0]),
        body("d6 block", shape="box", mass=1.5, position=[-2.0, 2.0, 0.0]),
    ]
    joints = [
        joint("fixed", "weld", "base", "arm", frame0={"position": [0.0, 1.0, 0.0]},
              frame1={"position": [0.0, -0.9, 0.0], "rotation": [1.0, 0.0, 0.0, 0.0]}),
        joint("distance", "rope", "arm", "ball",
              params={"minEnabled": True, "maxEnabled": True, "minDistance": 0.5, "maxDistance": 1.5,
                      "tolerance": 0.05, "springEnabled": False, "stiffness": 0.0, "damping": 0.0}),
        joint("spherical", "socket", "", "ball", frame0={"position": [1.0, 3.0, 0.0]},
              frame1={"position": [0.0, 1.0, 0.0]},
              params={"cone": {"enabled": True, "yAngle": 0.5, "zAngle": 0.6, "contactDistance": 0.05}}),
        joint("revolute", "hinge", "base", "slider", breakForce=1000.0, breakTorque=INF,
              params={"limit": limit(-0.5, 0.5), "motor": {"enabled": True, "targetVelocity": 1.0, "forceLimit": 50.0},
                      "drive": {"enabled": False, "stiffness": 10.0, "damping": 1.0, "forceLimit": INF},
                      "driveTarget": 0.25}),
        joint("prismatic", "piston", "", "slider", frame0={"position": [-1.0, 1.0, 0.0]},
              params={"limit": limit(-0.3, 0.3), "drive": {"enabled": True, "stiffness": 20.0, "damping": 2.0},
                      "driveTarget": 0.1}),
        joint("d6", "six", "", "d6 block", frame0={"position": [-2.0, 2.0, 0.0]},
              params={"motion": {"x": "limited", "y": "limited", "z": "limited", "twist": "limited",
                                 "swing1": "limited", "swing2": "free"},
                      "linearLimitX": limit(-0.1, 0.1), "linearLimitY": limit(-0.2, 0.2),
                      "linearLimitZ": limit(-0.3, 0.3), "twistLimit": limit(-1.0, 1.0),
                      "swingLimit": {"enabled": True, "yAngle": 0.4, "zAngle": 0.4},
                      "driveSlerp": {"enabled": True, "stiffness": 5.0, "damping": 0.5},
                      "driveRotation": [1.0, 0.0, 0.0, 0.0]}),
        joint("gear", "gears", "wheel", "ball", params={"mode": "angular", "ratio": 2.0, "offset": 0.0}),
        joint("rack_pinion", "rack drive", "wheel", "rack", params={"ratio": 0.1, "offset": 0.0}),
        joint("pulley", "tackle", "arm", "rack",
              params={"anchor0": [0.0, 3.0, 0.0], "anchor1": [2.0, 3.0, 0.0], "length": 5.0, "ratio": 1.0}),
    ]
    state_bodies = []
    for b in bodies:
        state_bodies.append({"name": b["name"], "position": list(b["position"]), "orientation": [1.0, 0.0, 0.0, 0.0],
                             "linearVelocity": [0.0, 0.0, 0.0], "angularVelocity": [0.0, 0.0, 0.0]})
    state_bodies[1]["contactImpulses"] = [0.0] * 24
    state_joints = [{"name": j["name"], "broken": False, "angles": [None, None, None, None]} for j in joints]
    state_joints[3]["angles"] = [0.125, None, None, None]
    return {
        "format": "jointlab-scenario",
        "version": 2,
        "description": "Base of the bad-scenario suite: every joint type, every limit enabled, a plot and a run state.",
        "settings": {"dt": 0.016666666666666666, "posIters": 4, "velIters": 1, "gravity": [0.0, -9.81, 0.0],
                     "solver": "tgs", "autoBaumgarte": False, "baumgarte": 0.5, "groundPlane": True,
                     "groundFriction": 0.6, "groundRestitution": 0.1, "maxLinearSpeed": 100.0,
                     "maxAngularSpeed": 50.0},
        "camera": {"target": [0.0, 1.0, 0.0], "distance": 8.0, "yaw": 0.6, "pitch": 0.35},
        "bodies": bodies,
        "joints": joints,
        "plots": [{"title": "hinge rows", "kind": "impulse", "joints": "hinge", "rows": "", "logScale": False}],
        "state": {"step": 120, "time": 2.0, "bodies": state_bodies, "joints": state_joints},
        "app": {"panels": {"plots": True}},
    }


def dumps(doc):
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# [SECTION] Helpers to damage a document

RAW = "@@RAW@@"  # a string placeholder replaced by raw text (tokens JSON does not have)


def path_text(path):
    """["bodies", 1, "mass"] -> bodies[1].mass"""
    s = ""
    for p in path:
        if isinstance(p, int):
            s += "[%d]" % p
        else:
            s += ("." if s else "") + p
    return s


def get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def set_at(doc, path, value):
    parent = doc
    for p in path[:-1]:  # objects on the way that the base leaves out (defaults) are created
        if isinstance(p, str) and p not in parent:
            parent[p] = {}
        parent = parent[p]
    parent[path[-1]] = value


def delete_at(doc, path):
    parent = get(doc, path[:-1])
    del parent[path[-1]]


def with_value(path, value):
    doc = base_scene()
    set_at(doc, path, value)
    return dumps(doc)


def with_raw(path, raw):
    return with_raw_line(path, raw)[0]


def with_raw_line(path, raw):
    """The base with raw text at path, and the line it is on."""
    doc = base_scene()
    set_at(doc, path, RAW)
    text = dumps(doc)
    assert text.count('"%s"' % RAW) == 1
    line = line_of(text, '"%s"' % RAW)
    return text.replace('"%s"' % RAW, raw), line


def without(path):
    doc = base_scene()
    delete_at(doc, path)
    return dumps(doc)


def line_of(text, fragment):
    i = text.index(fragment)
    return text.count("\n", 0, i) + 1


cases = []  # (slug, bytes, [fragments])


def add(slug, content, *fragments):
    if isinstance(content, str):
        content = content.encode("utf-8")
    assert fragments, slug
    cases.append((slug, content, list(fragments)))


def describe(v):
    """How the loader describes a JSON value in 'got ...'."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return 'string "%s"' % v
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, list):
        return "array"
    return "object"


# [SECTION] The cases

def syntax_cases():
    base = dumps(base_scene())
    add("empty_file", b"", "the file is empty")
    add("whitespace_only", " \n\t\r\n  ", "the file is empty")
    add("only_utf8_bom", b"\xef\xbb\xbf", "the file is empty")
    add("bom_then_garbage", b"\xef\xbb\xbfhello", "line 1, column", "invalid literal")
    add("two_utf8_boms", b"\xef\xbb\xbf\xef\xbb\xbf" + base.encode(), "line 1, column 4", "UTF-8 byte order mark")
    add("bom_in_the_middle", base.replace('"bodies": [', '\ufeff"bodies": [', 1),
        "line %d, column" % line_of(base, '"bodies": ['), "UTF-8 byte order mark")
    add("utf16le_with_bom", b"\xff\xfe" + base.encode("utf-16-le"), "UTF-16", "save it as UTF-8")
    add("utf16be_with_bom", b"\xfe\xff" + base.encode("utf-16-be"), "UTF-16", "save it as UTF-8")
    add("utf16le_without_bom", base.encode("utf-16-le"), "line 1, column 2", "NUL byte", "not a text file")
    add("utf32le_with_bom", b"\xff\xfe\x00\x00" + base.encode("utf-32-le"), "UTF-32", "save it as UTF-8")
    add("garbage_word", "hello", "line 1, column 1", "invalid literal")
    add("just_a_number", "42", "expected a JSON object at the top level, got number")
    add("just_a_string", '"jointlab-scenario"', "expected a JSON object at the top level, got string")
    add("just_null", "null", "expected a JSON object at the top level, got null")
    add("top_level_array", "[" + base + "]", "expected a JSON object at the top level, got array")
    add("two_documents", base + base, "line %d, column" % (base.count("\n") + 1), "expected end of input")
    add("trailing_garbage", base + "x", "expected end of input")
    add("trailing_comma_in_object", base.replace('"pitch": 0.35\n', '"pitch": 0.35,\n', 1),
        "camera", "expected string literal")
    add("trailing_comma_in_array", base.replace('"gravity": [\n      0.0,\n      -9.81,\n      0.0\n    ]',
                                                '"gravity": [\n      0.0,\n      -9.81,\n      0.0,\n    ]', 1),
        "settings.gravity[3]", "unexpected ']'")
    add("line_comment", "// my scene\n" + base, "line 1, column 1", "invalid literal")
    add("block_comment", base.replace('"camera"', '/* view */ "camera"', 1), "line %d" % line_of(base, '"camera"'),
        "invalid literal")
    add("single_quotes", base.replace('"name": "arm"', "'name': 'arm'", 1), "bodies[1]", "invalid literal")
    add("unquoted_key", base.replace('"mass": 2.0', 'mass: 2.0', 1), "bodies[1]", "invalid literal")
    add("missing_colon", base.replace('"mass": 2.0', '"mass" 2.0', 1), "bodies[1]", "expected ':'")
    add("missing_comma", base.replace('"mass": 2.0,', '"mass": 2.0', 1), "bodies[1]", "expected '}'")
    add("unclosed_string", base.replace('"name": "arm"', '"name": "arm', 1), "bodies[1].name",
        "invalid string: control character U+000A (LF) must be escaped")
    add("raw_tab_in_string", base.replace('"name": "arm"', '"name": "a\tm"', 1), "bodies[1].name",
        "control character U+0009 (HT) must be escaped")
    add("bad_escape", base.replace('"name": "arm"', '"name": "a\\qm"', 1), "bodies[1].name",
        "forbidden character after backslash")
    add("lone_surrogate_escape", base.replace('"name": "arm"', '"name": "\\ud800"', 1), "bodies[1].name",
        "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF")
    add("invalid_utf8_in_name", base.encode().replace(b'"name": "arm"', b'"name": "a\xffm"', 1), "bodies[1].name",
        "invalid string: ill-formed UTF-8 byte")
    add("overlong_utf8_slash", base.encode().replace(b'"name": "arm"', b'"name": "a\xc0\xafm"', 1),
        "bodies[1].name", "ill-formed UTF-8 byte")
    add("utf8_encoded_surrogate", base.encode().replace(b'"name": "arm"', b'"name": "a\xed\xa0\x80m"', 1),
        "bodies[1].name", "ill-formed UTF-8 byte")
    add("nul_byte_in_string", base.encode().replace(b'"name": "arm"', b'"name": "a\x00m"', 1),
        "line %d, column" % line_of(base, '"name": "arm"'), "NUL byte", "not a text file")
    add("duplicate_key_top", base.replace('"description"', '"bodies": [],\n  "description"', 1),
        "duplicate top-level key \"bodies\"")
    add("duplicate_key_body", base.replace('"mass": 2.0,', '"mass": 2.0,\n      "mass": 3.0,', 1),
        "bodies[1]: duplicate key \"mass\"")
    add("duplicate_key_params", base.replace('"ratio": 2.0,', '"ratio": 2.0,\n        "ratio": 3.0,', 1),
        "joints[6].params: duplicate key \"ratio\"")
    add("duplicate_key_state", base.replace('"step": 120,', '"step": 120,\n    "step": 121,', 1),
        "state: duplicate key \"step\"")
    # Deep nesting is refused by the pre-scan before any parser recursion.
    deep = "[" * 100000 + "]" * 100000
    add("deep_arrays_100000", deep, "line 1, column 65", "nesting deeper than 64 levels")
    add("deep_objects_100000", '{"a":' * 100000 + "1" + "}" * 100000, "nesting deeper than 64 levels")
    add("deep_mixed_100000", '[{"a":' * 50000 + "1" + "}]" * 50000, "nesting deeper than 64 levels")
    add("deep_unclosed_100000", "[" * 100000, "line 1, column 65", "nesting deeper than 64 levels")
    add("deep_in_app_100000", base.replace('"app": {', '"app": {"x": ' + deep + ', ', 1),
        "nesting deeper than 64 levels")
    add("deep_in_description_value", base.replace('"description": ', '"description": ' + "[" * 70 + "]" * 70 + ", \"x\": ", 1),
        "nesting deeper than 64 levels")
    add("deep_65_levels", base.replace('"app": {', '"app": {"x": ' + "[" * 63 + "]" * 63 + ', ', 1),
        "nesting deeper than 64 levels")
    # Huge strings: messages quote only the start.
    add("huge_string_for_mass", with_value(["bodies", 1, "mass"], "9" * 200000),
        'bodies[1].mass: expected a number, got string "9999', '..."')
    add("huge_unknown_key", base.replace('"mass": 2.0,', '"%s": 1,\n      "mass": 2.0,' % ("k" * 100000), 1),
        'bodies[1]: unknown key "kkkk', '..."')
    add("huge_unterminated_string", base[: base.index('"description": ') + 16] + "x" * 300000,
        "description: ", "invalid string: missing closing quote")
    add("huge_joint_type", with_value(["joints", 0, "type"], "fixed" * 40000),
        'joints[0].type: unknown joint type "fixedfixed', '...')
    add("huge_number", with_value(["bodies", 1, "mass"], 0).replace('"mass": 0', '"mass": 1' + "0" * 400, 1),
        "bodies[1].mass: number out of range: 1000")
    add("huge_integer_posIters", base.replace('"posIters": 4', '"posIters": 1' + "0" * 30, 1),
        "settings.posIters: expected an integer, got 1e30")
    # Binary garbage.
    rng = random.Random(20240610)
    for k in range(6):
        data = bytes(rng.randrange(256) for _ in range(64 + 97 * k))
        data = b"\x01" + data  # never starts like JSON, a BOM or whitespace
        add("binary_garbage_%d" % k, data, "line 1, column 1: control byte 0x01", "not a text file")
    add("png_header", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "line 2, column 1: control byte 0x1A", "not a text file")
    add("gzip_header", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + bytes(range(40)),
        "line 1, column 1: control byte 0x1F", "not a text file")
    add("elf_header", b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8, "line 1, column 5: control byte 0x02", "not a text file")
    add("zip_header", b"PK\x03\x04\x14\x00\x00\x00", "line 1, column 3: control byte 0x03", "not a text file")
    add("zero_bytes", b"\x00" * 100, "line 1, column 1", "NUL byte", "not a text file")


def truncation_cases():
    base = dumps(base_scene())
    last = base.rindex("}")
    # 50 offsets spread over the file, plus the awkward ones: inside a key, a string value, a
    # number, a literal, right after ':' and ',' and inside the state section.
    offsets = sorted(set([1 + (last - 1) * k // 49 for k in range(49)] + [
        base.index('"bodies"') + 3, base.index('"arm"') + 2, base.index("-9.81") + 3,
        base.index("true") + 2, base.index("false") + 1, base.index("null") + 2,
        base.index('"mass": ') + 8, base.index('"stiffness"') + 12, base.index('"state"') + 9,
        base.index('"contactImpulses"') + 22, last - 1, last]))
    for n in offsets:
        text = base[:n]
        line = text.count("\n") + 1
        add("truncated_at_%05d" % n, text, "line %d, column" % line, truncation_problem(text))


def truncation_problem(text):
    """What the parser says about JSON text cut off at its end: the token it was in decides."""
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
    if in_string:
        return "invalid string: missing closing quote"
    token = text[len(text.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-")):]
    if token and token[0] in "tfn":  # true, false, null cut short
        return "invalid literal"
    if token and token[-1] in ".eE+-":  # a number cut after its point, exponent or sign
        return "invalid number"
    return "unexpected end of input"


def missing_field_cases():
    required = [
        (["format"], 'format: missing (expected "jointlab-scenario")'),
        (["version"], "version: missing (required)"),
        (["bodies", 0, "name"], "bodies[0].name: missing (required)"),
        (["bodies", 6, "name"], "bodies[6].name: missing (required)"),
        (["joints", 0, "type"], "joints[0].type: missing (required; one of: fixed, distance"),
        (["joints", 3, "type"], "joints[3].type: missing (required; one of:"),
        (["joints", 0, "name"], "joints[0].name: missing (required)"),
        (["joints", 5, "name"], "joints[5].name: missing (required)"),
        (["joints", 2, "body0"], "joints[2].body0: missing (required)"),
        (["joints", 7, "body1"], "joints[7].body1: missing (required)"),
        (["state", "step"], "state.step: missing (required)"),
        (["state", "time"], "state.time: missing (required)"),
        (["state", "bodies"], "state.bodies: missing (required)"),
        (["state", "joints"], "state.joints: missing (required)"),
        (["state", "bodies", 2, "name"], "state.bodies[2].name: missing (required)"),
        (["state", "bodies", 2, "position"], "state.bodies[2].position: missing (required)"),
        (["state", "bodies", 3, "orientation"], "state.bodies[3].orientation: missing (required)"),
        (["state", "bodies", 4, "linearVelocity"], "state.bodies[4].linearVelocity: missing (required)"),
        (["state", "bodies", 5, "angularVelocity"], "state.bodies[5].angularVelocity: missing (required)"),
        (["state", "joints", 1, "broken"], "state.joints[1].broken: missing (required)"),
        (["state", "joints", 1, "angles"], "state.joints[1].angles: missing (required)"),
        (["state", "joints", 4, "name"], "state.joints[4].name: missing (required)"),
    ]
    for path, msg in required:
        add("missing_" + path_text(path).replace(".", "_").replace("[", "").replace("]", ""), without(path), msg)
    # A missing body or joint entry in the state: the state no longer fits.
    doc = base_scene()
    del doc["state"]["bodies"][3]
    add("state_missing_body_entry", dumps(doc),
        "state.bodies: has 6 entries but the scene has 7 bodies; the state does not belong to this scene")
    doc = base_scene()
    del doc["joints"][8]
    add("state_for_more_joints", dumps(doc), "state.joints: has 9 entries but the scene has 8 joints")
    doc = base_scene()
    del doc["bodies"][6]
    del doc["joints"][5]
    del doc["state"]["joints"][5]
    add("state_for_more_bodies", dumps(doc), "state.bodies: has 7 entries but the scene has 6 bodies")


def wrong_type_cases():
    # Top-level sections.
    for key, value, what in [("description", 5, "string"), ("settings", [], "object"), ("camera", "front", "object"),
                             ("bodies", {}, "array"), ("joints", "none", "array"), ("plots", {}, "array"),
                             ("state", [], "object"), ("app", 1, "object"), ("bodies", None, "array"),
                             ("joints", 3, "array")]:
        add("wrong_type_%s_%s" % (key, describe(value).split()[0]), with_value([key], value),
            "%s: expected %s %s, got %s" % (key, "an" if what[0] in "aeiou" else "a", what, describe(value)))
    add("wrong_type_body_entry", with_value(["bodies", 2], 3), "bodies[2]: expected an object, got number")
    add("wrong_type_joint_entry", with_value(["joints", 4], [1]), "joints[4]: expected an object, got array")
    add("wrong_type_plot_entry", with_value(["plots", 0], "x"), 'plots[0]: expected an object, got string "x"')
    # Numbers, integers, booleans, strings, vectors, quaternions, enums.
    numeric = [
        (["settings", "dt"], "fast"), (["settings", "baumgarte"], True), (["camera", "distance"], None),
        (["bodies", 1, "mass"], "heavy"), (["bodies", 1, "mass"], [2.0]), (["bodies", 2, "density"], {"v": 1}),
        (["bodies", 1, "radius"], False), (["bodies", 1, "linearDamping"], "0.1"),
        (["joints", 1, "params", "maxDistance"], "far"), (["joints", 3, "params", "limit", "lower"], None),
        (["joints", 3, "invMassScale0"], "1"), (["joints", 8, "params", "length"], [5.0]),
        (["state", "time"], "2.0"), (["joints", 3, "params", "driveTarget"], True),
    ]
    for path, value in numeric:
        expect = "%s: expected a number, got %s" % (path_text(path), describe(value))
        if path == ["state", "time"]:
            expect = '%s: expected a number, got %s' % (path_text(path), describe(value))
        add("wrong_type_%s_%s" % (path_text(path).replace(".", "_").replace("[", "").replace("]", ""),
                                  describe(value).split()[0]), with_value(path, value), expect)
    ints = [(["settings", "posIters"], 4.5, "expected an integer, got 4.5"),
            (["settings", "velIters"], "1", 'expected an integer, got string "1"'),
            (["settings", "posIters"], True, "expected an integer, got true"),
            (["state", "step"], 120.5, "expected an integer, got number"),
            (["state", "step"], "120", 'expected an integer, got string "120"'),
            (["version"], 2.5, "expected an integer, got number"),
            (["version"], "2", 'expected an integer, got string "2"'),
            (["version"], None, "expected an integer, got null")]
    for path, value, problem in ints:
        add("wrong_type_%s_%s" % (path_text(path).replace(".", "_"), str(value).replace(".", "_")),
            with_value(path, value), "%s: %s" % (path_text(path), problem))
    bools = [(["settings", "autoBaumgarte"], 1), (["settings", "groundPlane"], "yes"), (["joints", 0, "startBroken"], 0),
             (["joints", 3, "params", "limit", "enabled"], "true"), (["plots", 0, "logScale"], None),
             (["state", "joints", 2, "broken"], 1)]
    for path, value in bools:
        add("wrong_type_%s" % path_text(path).replace(".", "_").replace("[", "").replace("]", ""),
            with_value(path, value), "%s: expected true or false, got %s" % (path_text(path), describe(value)))
    strings = [(["bodies", 3, "name"], 7), (["joints", 2, "name"], True), (["joints", 4, "body1"], None),
               (["joints", 6, "body0"], ["wheel"]), (["plots", 0, "title"], 1.5), (["state", "bodies", 1, "name"], 1)]
    for path, value in strings:
        add("wrong_type_%s" % path_text(path).replace(".", "_").replace("[", "").replace("]", ""),
            with_value(path, value), "%s: expected a string, got %s" % (path_text(path), describe(value)))
    vectors = [
        (["bodies", 1, "position"], [1.0, 2.0], "expected 3 numbers, got 2"),
        (["bodies", 1, "position"], [1.0, 2.0, 3.0, 4.0], "expected 3 numbers, got 4"),
        (["bodies", 1, "position"], 1.0, "expected an array of 3 numbers, got number"),
        (["bodies", 1, "position"], {"x": 1}, "expected an array of 3 numbers, got object"),
        (["settings", "gravity"], [], "expected 3 numbers, got 0"),
        (["bodies", 0, "halfExtents"], "1 1 1", 'expected an array of 3 numbers, got string "1 1 1"'),
        (["joints", 0, "frame0", "position"], [0, "up", 0], None),
        (["bodies", 1, "orientation"], [1.0, 0.0, 0.0], "expected 4 numbers, got 3"),
        (["joints", 2, "frame1", "rotation"], [1, 0, 0, 0, 0], "expected 4 numbers, got 5"),
        (["joints", 5, "params", "driveRotation"], None, "expected an array of 4 numbers, got null"),
        (["state", "bodies", 1, "position"], [0.0, 2.0], "expected 3 numbers, got 2"),
        (["state", "bodies", 1, "orientation"], [[1.0], 0.0, 0.0, 0.0], None),
        (["state", "bodies", 1, "contactImpulses"], [0.0] * 23, "expected 24 numbers, got 23"),
        (["state", "bodies", 1, "contactImpulses"], [0.0] * 25, "expected 24 numbers, got 25"),
        (["state", "bodies", 2, "contactImpulses"], 0.0, "expected an array of 24 numbers, got number"),
        (["state", "joints", 3, "angles"], [0.1, None, None], "expected 4 numbers or nulls, got 3"),
        (["state", "joints", 3, "angles"], [0.1, "x", None, None], None),
        (["state", "joints", 3, "angles"], {}, "expected an array of 4 numbers or nulls, got object"),
    ]
    for n, (path, value, problem) in enumerate(vectors):
        slug = "wrong_vector_%02d_%s" % (n, path_text(path).replace(".", "_").replace("[", "").replace("]", ""))
        if problem is None:  # an element of the wrong type: the message names the element
            elem = [i for i, v in enumerate(value) if not isinstance(v, (int, float)) or isinstance(v, bool)][0]
            if value[elem] is not None and not isinstance(value[elem], list) and path[-1] == "angles":
                add(slug, with_value(path, value),
                    "%s[%d]: expected a number or null, got %s" % (path_text(path), elem, describe(value[elem])))
            else:
                add(slug, with_value(path, value),
                    "%s[%d]: expected a number, got %s" % (path_text(path), elem, describe(value[elem])))
        else:
            add(slug, with_value(path, value), "%s: %s" % (path_text(path), problem))
    enums = [
        (["bodies", 2, "shape"], "cube", "box, sphere, capsule, cylinder, hull, compound"),
        (["bodies", 2, "shape"], "Sphere", "box, sphere, capsule, cylinder, hull, compound"),
        (["bodies", 1, "motion"], "moving", "dynamic, static, kinematic"),
        (["bodies", 2, "massMode"], "volume", "mass, density"),
        (["settings", "solver"], "sor", "pgs, tgs"),
        (["settings", "solver"], "PGS", "pgs, tgs"),
        (["joints", 5, "params", "motion", "x"], "limit", "locked, limited, free"),
        (["joints", 5, "params", "motion", "swing2"], "", "locked, limited, free"),
        (["joints", 6, "params", "mode"], "rotational", "angular, linear"),
        (["plots", 0, "kind"], "speed", "impulse, error, force, torque, energy, convergence, reference, contact, projections, mujoco, divergence"),
    ]
    for path, value, options in enums:
        add("bad_enum_%s_%s" % (path_text(path).replace(".", "_").replace("[", "").replace("]", ""), value or "empty"),
            with_value(path, value),
            '%s: unknown value "%s" (expected one of: %s)' % (path_text(path), value, options))
    add("enum_as_number", with_value(["bodies", 2, "shape"], 1), "bodies[2].shape: expected a string, got number")
    add("frame_not_object", with_value(["joints", 0, "frame0"], [0, 1, 0]),
        "joints[0].frame0: expected an object, got array")
    add("limit_not_object", with_value(["joints", 3, "params", "limit"], True),
        "joints[3].params.limit: expected an object, got true")
    add("params_not_object", with_value(["joints", 3, "params"], "hinge"),
        'joints[3].params: expected an object, got string "hinge"')
    add("state_body_not_object", with_value(["state", "bodies", 2], [1]),
        "state.bodies[2]: expected an object, got array")
    add("state_joint_not_object", with_value(["state", "joints", 2], None),
        "state.joints[2]: expected an object, got null")


# Ways to spell a non-number or an out-of-range number where a number belongs.
SPELLINGS = [
    # (slug, raw JSON text, problem fragment)
    ("bare_NaN", "NaN", "invalid literal"),
    ("bare_nan", "nan", "invalid literal"),
    ("bare_minus_NaN", "-NaN", "invalid number"),
    ("bare_Infinity", "Infinity", "invalid literal"),
    ("bare_minus_Infinity", "-Infinity", "invalid number"),
    ("bare_inf", "inf", "invalid literal"),
    ("plus_sign", "+1.0", "invalid literal"),
    ("hex", "0x10", "syntax error"),  # the 0 is read: the error comes after the value
    ("leading_dot", ".5", "invalid literal"),
    ("trailing_dot", "1.", "invalid number"),
    ("exponent_without_digits", "1e", "invalid number"),
    ("overflow_1e400", "1e400", "number out of range: 1e400"),
    ("overflow_minus_1e400", "-1e400", "number out of range: -1e400"),
    ("string_NaN", '"NaN"', 'expected a number, got string "NaN"'),
    ("string_nan", '"nan"', 'expected a number, got string "nan"'),
    ("string_Infinity", '"Infinity"', 'expected a number, got string "Infinity"'),
    ("string_plus_inf", '"+inf"', 'expected a number, got string "+inf"'),
    ("string_number", '"1.5"', 'expected a number, got string "1.5"'),
    ("null", "null", "expected a number, got null"),
]

NUMERIC_FIELDS = [
    # (path, problem when it is "inf", problem for 1e39): most fields are finite-only.
    ["bodies", 1, "mass"],
    ["bodies", 1, "position", 1],
    ["settings", "dt"],
    ["settings", "gravity", 0],
    ["joints", 0, "frame0", "position", 2],
    ["joints", 3, "params", "limit", "lower"],
    ["joints", 4, "params", "drive", "stiffness"],
    ["joints", 0, "frame1", "rotation", 0],
    ["state", "bodies", 1, "linearVelocity", 2],
    ["state", "time"],
]


def number_cases():
    base = dumps(base_scene())
    for path in NUMERIC_FIELDS:
        p = path_text(path)
        slug_path = p.replace(".", "_").replace("[", "").replace("]", "")
        # The element of an array is named by its index in syntax errors too.
        for slug, raw, problem in SPELLINGS:
            text, line = with_raw_line(path, raw)
            frags = ["%s: %s" % (p, problem)] if not problem.startswith(("invalid", "syntax")) else [p + ": ", problem]
            if problem.startswith(("invalid", "syntax", "number out")):
                frags.append("(line %d, column" % line)
            add("number_%s_%s" % (slug_path, slug), text, *frags)
    # "inf" strings: only fields whose default is infinite (break thresholds, force limits) take them.
    for path in [["bodies", 1, "mass"], ["bodies", 1, "position", 0], ["settings", "maxLinearSpeed"],
                 ["joints", 3, "params", "limit", "upper"], ["joints", 1, "params", "stiffness"]]:
        p = path_text(path)
        slug_path = p.replace(".", "_").replace("[", "").replace("]", "")
        add("inf_string_%s" % slug_path, with_value(path, "inf"), "%s: must be finite, got inf" % p)
        add("minus_inf_string_%s" % slug_path, with_value(path, "-inf"), "%s: must be finite, got -inf" % p)
    add("minus_inf_break_force", with_value(["joints", 3, "breakForce"], "-inf"),
        "joints[3].breakForce: must be finite, got -inf")
    add("minus_inf_motor_force_limit", with_value(["joints", 3, "params", "motor", "forceLimit"], "-inf"),
        "joints[3].params.motor.forceLimit: must be finite, got -inf")
    add("inf_in_state_time", with_value(["state", "time"], "inf"), 'state.time: expected a number, got string "inf"')
    add("inf_in_state_position", with_value(["state", "bodies", 2, "position", 0], "-inf"),
        'state.bodies[2].position[0]: must be finite, got -inf')
    # Plausible-magnitude cap: |x| <= 1e15 in descriptions.
    for path in [["bodies", 1, "position", 0], ["settings", "gravity", 1], ["joints", 0, "frame0", "position", 1],
                 ["joints", 3, "params", "limit", "upper"], ["camera", "target", 2], ["joints", 8, "params", "anchor0", 0],
                 ["bodies", 1, "linearVelocity", 2]]:
        p = path_text(path)
        slug_path = p.replace(".", "_").replace("[", "").replace("]", "")
        add("magnitude_1e39_%s" % slug_path, with_raw(path, "1e39"), "%s: magnitude must be <= 1e15, got 1e39" % p)
        add("magnitude_minus_1e16_%s" % slug_path, with_raw(path, "-1e16"),
            "%s: magnitude must be <= 1e15, got -1e16" % p)
    add("magnitude_1e39_mass", with_raw(["bodies", 1, "mass"], "1e39"), "bodies[1].mass: must be <= 1e6, got 1e39")
    add("magnitude_1e39_break_force", with_raw(["joints", 3, "breakForce"], "1e39"),
        'joints[3].breakForce: magnitude must be <= 1e15, got 1e39 (write "inf" for no limit)')
    add("magnitude_1e39_stiffness", with_raw(["joints", 4, "params", "drive", "stiffness"], "1e39"),
        "joints[4].params.drive.stiffness: magnitude must be <= 1e15, got 1e39")
    del base


def range_cases():
    ranges = [
        (["bodies", 1, "mass"], -2, "must be >= 1e-6, got -2"),
        (["bodies", 1, "mass"], 0, "must be >= 1e-6, got 0"),
        (["bodies", 1, "mass"], -0.0, "must be >= 1e-6, got -0"),
        (["bodies", 2, "density"], 0, "must be >= 0.001, got 0"),
        (["bodies", 2, "density"], -1000, "must be >= 0.001, got -1000"),
        (["bodies", 2, "radius"], 0, "must be >= 0.001, got 0"),
        (["bodies", 1, "halfHeight"], -0.1, "must be >= 0, got -0.1"),
        (["bodies", 0, "halfExtents", 1], 0, None),
        (["bodies", 3, "halfExtents", 0], -0.2, None),
        (["bodies", 1, "linearDamping"], -0.1, "must be >= 0, got -0.1"),
        (["bodies", 1, "angularDamping"], -1, "must be >= 0, got -1"),
        (["settings", "dt"], 0, "must be >= 1e-5, got 0"),
        (["settings", "dt"], -0.01, "must be >= 1e-5, got -0.01"),
        (["settings", "dt"], 1, "must be <= 0.1, got 1"),
        (["settings", "posIters"], 0, "must be >= 1, got 0"),
        (["settings", "posIters"], 256, "must be <= 255, got 256"),
        (["settings", "velIters"], -1, "must be >= 0, got -1"),
        (["settings", "posIters"], 3000000000, "integer out of range, got 3000000000"),
        (["settings", "baumgarte"], 1.5, "must be <= 1, got 1.5"),
        (["settings", "baumgarte"], -0.1, "must be >= 0, got -0.1"),
        (["settings", "groundFriction"], -0.5, "must be >= 0, got -0.5"),
        (["settings", "groundRestitution"], 2, "must be <= 1, got 2"),
        (["settings", "maxLinearSpeed"], 0, "must be >= 0.001, got 0"),
        (["settings", "maxAngularSpeed"], -100, "must be >= 0.001, got -100"),
        (["camera", "distance"], 0, "must be > 0, got 0"),
        (["camera", "pitch"], 2, "must be <= 1.57, got 2"),
        (["joints", 0, "invMassScale0"], -1, "must be >= 0, got -1"),
        (["joints", 0, "invInertiaScale1"], -0.5, "must be >= 0, got -0.5"),
        (["joints", 3, "breakForce"], 0, "must be > 0, got 0"),
        (["joints", 3, "breakForce"], -5, "must be > 0, got -5"),
        (["joints", 3, "breakTorque"], 0, "must be > 0, got 0"),
        (["joints", 1, "params", "minDistance"], -0.5, "must be >= 0, got -0.5"),
        (["joints", 1, "params", "tolerance"], -1, "must be >= 0, got -1"),
        (["joints", 2, "params", "cone", "yAngle"], 0, "must be >= 0.001, got 0"),
        (["joints", 2, "params", "cone", "zAngle"], 4, "must be <= 3.141592653589793, got 4"),
        (["joints", 2, "params", "cone", "restitution"], 1.5, "must be <= 1, got 1.5"),
        (["joints", 3, "params", "limit", "contactDistance"], -0.05, "must be >= 0, got -0.05"),
        (["joints", 3, "params", "motor", "forceLimit"], 0, "must be > 0, got 0"),
        (["joints", 3, "params", "drive", "stiffness"], -10, "must be >= 0, got -10"),
        (["joints", 4, "params", "drive", "damping"], -2, "must be >= 0, got -2"),
        (["joints", 4, "params", "limit", "bounceThreshold"], -1, "must be >= 0, got -1"),
        (["joints", 5, "params", "swingLimit", "yAngle"], 3.5, "must be <= 3.141592653589793, got 3.5"),
        (["joints", 5, "params", "driveSlerp", "forceLimit"], -1, "must be > 0, got -1"),
        (["joints", 6, "params", "erp"], 2, "must be <= 1, got 2"),
        (["joints", 7, "params", "erp"], -1, "must be >= 0, got -1"),
        (["joints", 8, "params", "length"], 0, "must be > 0, got 0"),
        (["joints", 8, "params", "ratio"], -1, "must be > 0, got -1"),
        (["state", "step"], -1, "must be >= 0, got -1"),
        (["state", "step"], 18446744073709551615, "must be <= 1000000000000 (the longest run JointLab takes), got 18446744073709551615"),
        (["state", "time"], -2.0, "must be finite and >= 0, got -2"),
    ]
    for path, value, problem in ranges:
        p = path_text(path)
        if problem is None:
            problem = "must be >= 0.001, got %s" % ("-0.2" if value == -0.2 else "0")
        add("range_%s_%s" % (p.replace(".", "_").replace("[", "").replace("]", ""), str(value).replace(".", "_")),
            with_value(path, value), "%s: %s" % (p, problem))
    add("version_3", with_value(["version"], 3), "version: 3 is newer than this JointLab (2); update JointLab")
    add("version_99", with_value(["version"], 99), "version: 99 is newer than this JointLab (2)")
    add("version_huge", with_value(["version"], 18446744073709551615), "version: 18446744073709551615 is newer")
    add("version_overflow", with_raw(["version"], "18446744073709551616"),
        "version: expected an integer, got number 1.8446744073709552e19")
    add("version_0", with_value(["version"], 0), "version: must be >= 1, got 0")
    add("version_negative", with_value(["version"], -1), "version: must be >= 1, got -1")
    add("version_1_with_state", with_value(["version"], 1), "state: not part of format version 1 (added in version 2)")
    add("format_wrong", with_value(["format"], "blender-scene"),
        'format: expected "jointlab-scenario", got string "blender-scene" (not a JointLab scenario)')
    add("format_case", with_value(["format"], "JointLab-Scenario"), 'format: expected "jointlab-scenario"')
    add("format_number", with_value(["format"], 1), 'format: expected "jointlab-scenario", got number')


def quaternion_cases():
    quats = [
        ["bodies", 1, "orientation"], ["bodies", 0, "orientation"], ["joints", 0, "frame0", "rotation"],
        ["joints", 3, "frame1", "rotation"], ["joints", 5, "params", "driveRotation"],
        ["joints", 6, "frame0", "rotation"], ["joints", 7, "frame1", "rotation"],
    ]
    for path in quats:
        p = path_text(path)
        slug = p.replace(".", "_").replace("[", "").replace("]", "")
        add("zero_quaternion_%s" % slug, with_value(path, [0.0, 0.0, 0.0, 0.0]), "%s: not a unit quaternion (|q| = 0)" % p)
        add("long_quaternion_%s" % slug, with_value(path, [2.0, 0.0, 0.0, 0.0]), "%s: not a unit quaternion (|q| = 2)" % p)
    add("quaternion_slightly_long", with_value(["bodies", 1, "orientation"], [1.01, 0.0, 0.0, 0.0]),
        "bodies[1].orientation: not a unit quaternion (|q| = 1.01)")
    add("quaternion_tiny", with_value(["joints", 2, "frame0", "rotation"], [1e-9, 0.0, 0.0, 0.0]),
        "joints[2].frame0.rotation: not a unit quaternion (|q| = 1e-9)")
    add("quaternion_inf", with_value(["bodies", 1, "orientation"], ["inf", 0.0, 0.0, 0.0]),
        "bodies[1].orientation: must be finite")
    add("state_zero_quaternion", with_value(["state", "bodies", 1, "orientation"], [0.0, 0.0, 0.0, 0.0]),
        "state.bodies[1].orientation: not a finite unit quaternion (|q| = 0)")
    add("state_long_quaternion", with_value(["state", "bodies", 4, "orientation"], [0.0, 0.0, 3.0, 0.0]),
        "state.bodies[4].orientation: not a finite unit quaternion (|q| = 3)")


def limit_cases():
    """lower > upper in every limit that has both (when enabled), and min > max of the distance joint."""
    for j, key, (lo, hi) in [(3, "limit", (0.5, -0.5)), (4, "limit", (0.3, -0.3)),
                             (5, "linearLimitX", (0.2, 0.1)), (5, "linearLimitY", (1.0, -1.0)),
                             (5, "linearLimitZ", (0.0, -1e-9)), (5, "twistLimit", (1.0, -1.0))]:
        doc = base_scene()
        doc["joints"][j]["params"][key]["lower"] = lo
        doc["joints"][j]["params"][key]["upper"] = hi
        add("lower_above_upper_joints%d_%s" % (j, key), dumps(doc),
            "joints[%d].params.%s.lower: must be <= upper" % (j, key))
    doc = base_scene()
    doc["joints"][1]["params"]["minDistance"] = 2.0
    add("min_above_max_distance", dumps(doc), "joints[1].params.minDistance: must be <= maxDistance")
    doc = base_scene()
    doc["joints"][1]["params"]["maxDistance"] = 0.25
    add("max_below_min_distance", dumps(doc), "joints[1].params.minDistance: must be <= maxDistance")


def name_cases():
    def refs(j, key, value, msg):
        doc = base_scene()
        doc["joints"][j][key] = value
        add("reference_joints%d_%s_%s" % (j, key, "".join(c if c.isalnum() else "_" for c in value) or "world"),
            dumps(doc), msg)
    refs(0, "body1", "lever", 'joints[0].body1: no body named "lever"')
    refs(3, "body0", "Base", 'joints[3].body0: no body named "Base"')
    refs(6, "body0", "wheel ", 'joints[6].body0: no body named "wheel "')
    refs(7, "body1", "racks", 'joints[7].body1: no body named "racks"')
    refs(8, "body0", "d6block", 'joints[8].body0: no body named "d6block"')
    refs(1, "body1", "bodies[2]", 'joints[1].body1: no body named "bodies[2]"')
    refs(0, "body1", "base", 'joints[0].body1: joins body "base" to itself')
    refs(2, "body1", "", "joints[2]: both bodies are the world")
    doc = base_scene()
    doc["bodies"][4]["name"] = "arm"
    add("duplicate_body_name", dumps(doc), 'bodies[4].name: duplicate body name "arm" (also bodies[1])')
    doc = base_scene()
    doc["bodies"][6]["name"] = "base"
    add("duplicate_body_name_last", dumps(doc), 'bodies[6].name: duplicate body name "base" (also bodies[0])')
    doc = base_scene()
    doc["joints"][8]["name"] = "hinge"
    add("duplicate_joint_name", dumps(doc), 'joints[8].name: duplicate joint name "hinge" (also joints[3])')
    doc = base_scene()
    doc["bodies"][2]["name"] = ""
    add("empty_body_name", dumps(doc), "bodies[2].name: must not be empty")
    doc = base_scene()
    doc["joints"][4]["name"] = ""
    add("empty_joint_name", dumps(doc), "joints[4].name: must not be empty")
    doc = base_scene()
    doc["bodies"][3]["name"] = "sli\nder"
    add("control_character_in_body_name", dumps(doc), 'bodies[3].name: must not contain control characters, got "sli\\nder"')
    doc = base_scene()
    doc["joints"][1]["name"] = "ro\u0007pe"
    add("bell_in_joint_name", dumps(doc), "joints[1].name: must not contain control characters")
    # The state names the scene's bodies and joints in order.
    doc = base_scene()
    doc["state"]["bodies"][2]["name"] = "wheel"
    add("state_body_name_mismatch", dumps(doc),
        'state.bodies[2].name: expected "ball" (the name of bodies[2]), got "wheel"; the state does not belong to this scene')
    doc = base_scene()
    doc["state"]["joints"][0]["name"] = "socket"
    add("state_joint_name_mismatch", dumps(doc),
        'state.joints[0].name: expected "weld" (the name of joints[0]), got "socket"')
    doc = base_scene()
    doc["state"]["bodies"][1], doc["state"]["bodies"][2] = doc["state"]["bodies"][2], doc["state"]["bodies"][1]
    add("state_bodies_reordered", dumps(doc), 'state.bodies[1].name: expected "arm" (the name of bodies[1]), got "ball"')


def joint_type_cases():
    types = "fixed, distance, spherical, revolute, prismatic, d6, gear, rack_pinion, pulley"
    for value in ["hinge", "Revolute", "", "fixed ", "ball_socket", "universal", "rack-pinion", "D6"]:
        add("unknown_joint_type_%s" % ("".join(c if c.isalnum() else "_" for c in value) or "empty"),
            with_value(["joints", 3, "type"], value),
            'joints[3].type: unknown joint type "%s" (expected one of: %s)' % (value, types))
    add("joint_type_number", with_value(["joints", 0, "type"], 3), "joints[0].type: expected a string, got number")
    add("joint_type_null", with_value(["joints", 0, "type"], None), "joints[0].type: expected a string, got null")
    # Parameters of another type: the keys are unknown for this one.
    doc = base_scene()
    doc["joints"][0]["type"] = "revolute"
    doc["joints"][3]["type"] = "fixed"
    add("params_of_another_type", dumps(doc), 'joints[3].params: unknown key "limit"')


def unknown_key_cases():
    keys = [
        ([], "bodys", 'unknown top-level key "bodys" (did you mean "bodies"?)'),
        ([], "Version", 'unknown top-level key "Version" (did you mean "version"?)'),
        ([], "states", 'unknown top-level key "states" (did you mean "state"?)'),
        ([], "units", 'unknown top-level key "units"'),
        (["settings"], "gravityy", 'settings: unknown key "gravityy" (did you mean "gravity"?)'),
        (["settings"], "substeps", 'settings: unknown key "substeps"'),
        (["camera"], "fov", 'camera: unknown key "fov"'),
        (["bodies", 1], "mas", 'bodies[1]: unknown key "mas" (did you mean "mass"?)'),
        (["bodies", 1], "Mass", 'bodies[1]: unknown key "Mass" (did you mean "mass"?)'),
        (["bodies", 1], "friction", 'bodies[1]: unknown key "friction"'),
        (["joints", 3], "bodyA", 'joints[3]: unknown key "bodyA"'),
        (["joints", 3], "axis", 'joints[3]: unknown key "axis"'),
        (["joints", 0, "frame0"], "positon", 'joints[0].frame0: unknown key "positon" (did you mean "position"?)'),
        (["joints", 0, "frame1"], "axis", 'joints[0].frame1: unknown key "axis"'),
        (["joints", 3, "params"], "limits", 'joints[3].params: unknown key "limits" (did you mean "limit"?)'),
        (["joints", 3, "params", "limit"], "min", 'joints[3].params.limit: unknown key "min"'),
        (["joints", 5, "params", "motion"], "w", 'joints[5].params.motion: unknown key "w"'),
        (["joints", 1, "params"], "length", 'joints[1].params: unknown key "length"'),
        (["plots", 0], "titel", 'plots[0]: unknown key "titel" (did you mean "title"?)'),
        (["state"], "steps", 'state: unknown key "steps" (did you mean "step"?)'),
        (["state", "bodies", 2], "velocity", 'state.bodies[2]: unknown key "velocity"'),
        (["state", "joints", 3], "angle", 'state.joints[3]: unknown key "angle" (did you mean "angles"?)'),
    ]
    for path, key, msg in keys:
        doc = base_scene()
        get(doc, path)[key] = 1
        add("unknown_key_%s_%s" % (path_text(path).replace(".", "_").replace("[", "").replace("]", "") or "top", key),
            dumps(doc), msg)


def state_value_cases():
    add("state_step_negative_big", with_value(["state", "step"], -9223372036854775807), "state.step: must be >= 0")
    add("state_time_negative", with_value(["state", "time"], -1e-9), "state.time: must be finite and >= 0, got -1e-9")
    add("state_time_overflow", with_raw(["state", "time"], "1e309"), "state.time: number out of range: 1e309")
    add("state_velocity_overflow", with_raw(["state", "bodies", 1, "angularVelocity", 0], "-1e999"),
        "state.bodies[1].angularVelocity[0]: number out of range: -1e999")
    add("state_contact_overflow", with_raw(["state", "bodies", 1, "contactImpulses", 5], "1e400"),
        "state.bodies[1].contactImpulses[5]: number out of range")
    add("state_angle_overflow", with_raw(["state", "joints", 3, "angles", 0], "2e308"),
        "state.joints[3].angles[0]: number out of range")
    add("state_angle_string", with_value(["state", "joints", 3, "angles", 1], "nan"),
        'state.joints[3].angles[1]: expected a number or null, got string "nan"')
    add("state_contact_null", with_value(["state", "bodies", 1, "contactImpulses", 0], None),
        "state.bodies[1].contactImpulses[0]: expected a number, got null")
    add("state_orientation_nan_string", with_value(["state", "bodies", 2, "orientation", 0], "nan"),
        'state.bodies[2].orientation[0]: expected a number, got string "nan"')


def reliability_cases():
    """Issue 24 (Reliability II); appended last so the numbers of the files above stay put."""
    # Bounded runs: no step count past 10^12 (jl::kMaxStepCount).
    add("state_step_int64_max", with_value(["state", "step"], 9223372036854775807),
        "state.step: must be <= 1000000000000 (the longest run JointLab takes), got 9223372036854775807")
    add("state_step_past_max", with_value(["state", "step"], 1000000000001),
        "state.step: must be <= 1000000000000 (the longest run JointLab takes), got 1000000000001")
    # Names: no C1 control characters, DEL, or line/paragraph separators; shown escaped.
    for slug, ch, shown in [("c1_first", "\u0080", "\\u0080"), ("c1_nel", "\u0085", "\\u0085"),
                            ("c1_csi", "\u009b", "\\u009B"), ("c1_last", "\u009f", "\\u009F"),
                            ("del", "\u007f", "\\x7F")]:
        doc = base_scene()
        doc["bodies"][3]["name"] = "sli" + ch + "der"
        add("%s_in_body_name" % slug, dumps(doc),
            'bodies[3].name: must not contain control characters, got "sli%sder"' % shown)
    for slug, ch, shown in [("line_separator", "\u2028", "\\u2028"), ("paragraph_separator", "\u2029", "\\u2029")]:
        doc = base_scene()
        doc["joints"][1]["name"] = "ro" + ch + "pe"
        add("%s_in_joint_name" % slug, dumps(doc),
            'joints[1].name: must not contain line or paragraph separators (U+2028, U+2029), got "ro%spe"' % shown)
    # Numbers in messages: the shortest text that reads back the same double.
    add("magnitude_one_ulp_above_1e15", with_raw(["bodies", 1, "position", 0], "1.0000000000000002e15"),
        "bodies[1].position[0]: magnitude must be <= 1e15, got 1.0000000000000002e15")
    add("dt_point_one_plus_epsilon", with_raw(["settings", "dt"], "0.10000000000000002"),
        "settings.dt: must be <= 0.1, got 0.10000000000000002")
    add("dt_below_min", with_raw(["settings", "dt"], "9.999999999999999e-6"),
        "settings.dt: must be >= 1e-5, got 9.999999999999999e-6")
    # "version": 2.0 is version 2; 3.0 is version 3 (newer), 2.5 is no version.
    add("version_3_point_0", with_raw(["version"], "3.0"), "version: 3 is newer than this JointLab (2)")
    # Every accepted scene simulates honestly (issue 24, point 5): the values that passed before and
    # then gave denormal inertia, a mass of 0 or rows the solver had to drop are refused.
    add("honest_mass_1e15_bob", with_value(["bodies", 1, "mass"], 1e15), "bodies[1].mass: must be <= 1e6, got 1e15")
    add("honest_mass_1e-307", with_raw(["bodies", 1, "mass"], "1e-307"), "bodies[1].mass: must be >= 1e-6, got 1e-307")
    add("honest_half_size_1e-160", with_raw(["bodies", 0, "halfExtents", 2], "1e-160"),
        "bodies[0].halfExtents[2]: must be >= 0.001, got 1e-160")
    add("honest_radius_1e4", with_value(["bodies", 2, "radius"], 1e4), "bodies[2].radius: must be <= 100, got 10000")
    add("honest_max_speed_denormal", with_raw(["settings", "maxLinearSpeed"], "5e-324"),
        "settings.maxLinearSpeed: must be >= 0.001, got 5e-324")
    doc = base_scene()
    doc["bodies"][2]["massMode"] = "density"
    doc["bodies"][2]["density"] = 0.001
    doc["bodies"][2]["radius"] = 0.001
    add("honest_density_mass_underflow", dumps(doc), "bodies[2]", ".density: density × volume gives a mass of",
        "outside the accepted masses [1e-6, 1e6] kg")
    doc["bodies"][2]["density"] = 1e5
    doc["bodies"][2]["radius"] = 100
    add("honest_density_mass_too_large", dumps(doc), "bodies[2]", ".density: density × volume gives a mass of 418879020478.63904 kg",
        "outside the accepted masses [1e-6, 1e6] kg")


def main():
    syntax_cases()
    truncation_cases()
    missing_field_cases()
    wrong_type_cases()
    number_cases()
    range_cases()
    quaternion_cases()
    limit_cases()
    name_cases()
    joint_type_cases()
    unknown_key_cases()
    state_value_cases()
    reliability_cases()

    slugs = [c[0] for c in cases]
    dup = [s for s in slugs if slugs.count(s) > 1]
    assert not dup, "duplicate slugs: %s" % sorted(set(dup))

    with open(BASE_PATH, "w", encoding="utf-8") as f:
        f.write(dumps(base_scene()))
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    with open(os.path.join(OUT, "expected.tsv"), "w", encoding="utf-8") as manifest:
        manifest.write("# file\tfragments its error message must contain (tab-separated); "
                       "written by tests/data/generate_bad_scenarios.py\n")
        for n, (slug, content, fragments) in enumerate(cases):
            name = "%03d_%s.json" % (n, slug)
            with open(os.path.join(OUT, name), "wb") as f:
                f.write(content)
            for frag in fragments:
                assert "\t" not in frag and "\n" not in frag, (slug, frag)
            manifest.write(name + "\t" + "\t".join(fragments) + "\n")
    print("%d bad scenario files in %s" % (len(cases), os.path.relpath(OUT)))


if __name__ == "__main__":
    main()
