// Payment-instruction actions, through BeneficiaryService (BENEFICIARY_INSTRUCTION_* events follow).
import type { InstructionStatus } from '../domain/beneficiaries';
import type { HandlerContext, HandlerTable } from '../resources/types';
import { ok, type ControlContext } from './context';
import { beneficiaryOwner } from './lookup';
import { assertPublic } from './public-schemas';

export function beneficiaryHandlers(c: ControlContext): HandlerTable {
  const move = async ({ params, body }: HandlerContext, to: InstructionStatus) => {
    const beneficiaryId = params.beneficiaryId as string;
    const customerId = await beneficiaryOwner(c.deps.store, beneficiaryId);
    const reason = body?.reason;
    if (reason !== undefined) assertPublic(c.publicContract, 'Reason', reason, 'body.reason');
    return ok(await c.services.beneficiaries.moveInstruction(customerId, beneficiaryId, params.instructionId as string, to, reason));
  };
  return {
    approvePaymentInstruction: (ctx) => move(ctx, 'APPROVED'),
    rejectPaymentInstruction: (ctx) => move(ctx, 'REJECTED'),
    requirePaymentInstructionAction: (ctx) => move(ctx, 'ACTION_REQUIRED'),
  };
}
