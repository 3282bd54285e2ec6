-- AlterTable
ALTER TABLE "Persona" ADD COLUMN     "model" JSONB;
