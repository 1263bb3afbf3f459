/**
 * The API server's gatekeepers: RBAC authorization over the stored Roles and bindings, and
 * validating admission that evaluates the stored ValidatingAdmissionPolicies with a real CEL
 * engine. Both read the chart's own objects; neither holds a copy of them.
 */
package io.kuik.sim.world.admission;
