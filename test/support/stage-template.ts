import { type CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON is untyped.
type Json = any;

/** The nested stacks of `stack`, at every depth. */
export const nestedStacksOf = (stack: Stack): Stack[] =>
  stack.node
    .findAll()
    .filter((construct): construct is Stack => Stack.isStack(construct) && construct !== stack);

/** Replaces, everywhere in `value`, each object `replace` knows by what it returns. */
function rewrite(value: Json, replace: (node: Json) => Json | undefined): Json {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const replaced = replace(value);
  if (replaced !== undefined) return rewrite(replaced, replace);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, replace)]));
}

const onlyKey = (node: Json): string | undefined => {
  const keys = Object.keys(node);
  return keys.length === 1 ? keys[0] : undefined;
};

/**
 * The stage as one template, as if its nested stacks were not there: each nested stack's resources
 * join the parent's, a nested stack's parameter is replaced by the value the parent passes it, and
 * the parent's reading of a nested stack's output by that output's value. References then name
 * resources by their logical ids in their own stack, as before the split, and assertions about one
 * function's role, grants and alarms read the same whatever stack holds it. Two stacks holding the
 * same logical id would make this ambiguous: that fails here rather than hide a resource.
 */
export function stageTemplateOf(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON();
  const resources: Record<string, Json> = { ...parent.Resources };
  const nestedOutputs = new Map<string, Record<string, Json>>();
  const nestedResources: Record<string, Json>[] = [];
  for (const nested of nestedStacksOf(stack)) {
    const owner = nested.nestedStackParent as Stack;
    const resourceId = owner.getLogicalId(nested.nestedStackResource as CfnResource);
    const passed: Record<string, Json> = resources[resourceId]?.Properties?.Parameters ?? {};
    const template = Template.fromStack(nested).toJSON();
    const resolveParameters = (node: Json) => {
      if (onlyKey(node) === 'Ref' && typeof node.Ref === 'string' && node.Ref in passed)
        return passed[node.Ref];
      return undefined;
    };
    nestedResources.push(rewrite(template.Resources ?? {}, resolveParameters));
    nestedOutputs.set(
      resourceId,
      Object.fromEntries(
        Object.entries(template.Outputs ?? {}).map(([name, output]) => [
          name,
          rewrite((output as Json).Value, resolveParameters),
        ]),
      ),
    );
    delete resources[resourceId];
  }
  for (const nested of nestedResources) {
    for (const [id, resource] of Object.entries(nested)) {
      if (id in resources) throw new Error(`Logical id ${id} is in two stacks of ${stack.node.path}`);
      resources[id] = resource;
    }
  }
  const readOutputs = (node: Json) => {
    if (onlyKey(node) !== 'Fn::GetAtt') return undefined;
    const [resourceId, attribute] = node['Fn::GetAtt'] as [string, string];
    const outputs = nestedOutputs.get(resourceId);
    if (!outputs || !attribute.startsWith('Outputs.')) return undefined;
    return outputs[attribute.slice('Outputs.'.length)];
  };
  return Template.fromJSON(rewrite({ ...parent, Resources: resources }, readOutputs));
}
