-- AlterTable
ALTER TABLE "LlmCall" ADD COLUMN     "personaId" TEXT;
