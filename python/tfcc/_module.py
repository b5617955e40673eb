"""tf.Module: variables and submodules tracked through Python attributes, in TensorFlow's order
(a module's attributes sorted by name, then its submodules' in that order; lists, tuples and dicts
are walked; each object once)."""

import re

from tfcc import _variables


def _camel_to_snake(name):
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


class Module:
    """tf.Module(name=None)."""

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not re.match(r"^[A-Za-z_][A-Za-z0-9_.\-]*$", name):
            raise ValueError("%r is not a valid module name. Module names must be valid Python "
                             "identifiers (e.g. a valid class name)." % name)
        self._name = name

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return self._name

    def _flatten(self, predicate):
        seen = {id(self)}
        out = []

        def leaves(obj):
            if isinstance(obj, dict):
                for k in sorted(obj, key=str):
                    yield from leaves(obj[k])
            elif isinstance(obj, (list, tuple)):
                for v in obj:
                    yield from leaves(v)
            elif isinstance(obj, (Module, _variables.Variable)):
                yield obj

        def walk(module):
            # A module's own leaves (attributes sorted by name) first, then its submodules'.
            submodules = []
            for k in sorted(vars(module)):
                for leaf in leaves(vars(module)[k]):
                    if id(leaf) in seen:
                        continue
                    seen.add(id(leaf))
                    if predicate(leaf):
                        out.append(leaf)
                    if isinstance(leaf, Module):
                        submodules.append(leaf)
            for m in submodules:
                walk(m)

        walk(self)
        return tuple(out)

    @property
    def variables(self):
        return self._flatten(lambda o: isinstance(o, _variables.Variable))

    @property
    def trainable_variables(self):
        return self._flatten(lambda o: isinstance(o, _variables.Variable) and o.trainable)

    @property
    def non_trainable_variables(self):
        return self._flatten(lambda o: isinstance(o, _variables.Variable) and not o.trainable)

    @property
    def submodules(self):
        return self._flatten(lambda o: isinstance(o, Module))

    def __repr__(self):
        return "<%s.%s object at %s>" % (type(self).__module__, type(self).__name__,
                                         hex(id(self)))
