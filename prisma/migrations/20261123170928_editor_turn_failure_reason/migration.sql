-- AlterTable
ALTER TABLE "EditorTurn" ADD COLUMN     "reason" TEXT;
